/**
 * The props every page receives (user, configVariables, route,
 * colorScheme, language). Their types are the server's (`#api/pages`, built
 * by `app/middleware/inertia_middleware.ts`); this file makes them the
 * Inertia pages' shared props.
 */
import type { PublicUser } from '#api/user'
import type { PublicConfigVariable } from '#api/config'
import type { ColorScheme, SharedPageProps } from '#api/pages'

export type { ColorScheme, PublicUser, SharedPageProps }

/** A public configuration variable, as `GET /api/configs` lists it. */
export type ConfigVariable = PublicConfigVariable

declare module '@inertiajs/core' {
  export interface InertiaConfig {
    sharedPageProps: SharedPageProps
  }
}
