/**
 * The props every page receives (spec: user, configVariables, route,
 * colorScheme, language). The server builds them in
 * `app/services/pages/shared_props.ts`; a functional test
 * (tests/functional/pages/shared_props.spec.ts) checks both stay in step.
 */
import type { PublicUser } from '#api/user'

export type { PublicUser }

/** Colour schemes a visitor may choose; `system` follows the OS setting. */
export type ColorScheme = 'light' | 'dark' | 'system'

/** A public configuration variable, as `GET /api/configs` lists it. */
export interface ConfigVariable {
  key: string
  value: string
  type: string
}

/** Shared props of every page. */
export type SharedPageProps = {
  /** The signed-in user, or null for visitors. */
  user: PublicUser | null
  /** The public configuration variables. */
  configVariables: ConfigVariable[]
  /** The path of the current page (no query string). */
  route: string
  /** The colour scheme preference from the `color_scheme` cookie. */
  colorScheme: ColorScheme
  /** The locale code the page is rendered in. */
  language: string
}

declare module '@inertiajs/core' {
  export interface InertiaConfig {
    sharedPageProps: SharedPageProps
  }
}
