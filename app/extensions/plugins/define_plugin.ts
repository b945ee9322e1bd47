/**
 * The plugin contract: the manifest every `plugins/<id>/manifest.ts` exports
 * (`export const manifest = definePlugin({...})`) and the provider class its
 * `provider.ts` exports by default.
 */
import type { ApplicationService } from '@adonisjs/core/types'
import type { HttpRouterService } from '@adonisjs/core/types'
import type { ConfigCategoryDefinition, ConfigCategoryExtension } from '#extensions/config/types'
import type { HookName } from '#extensions/hooks/types'

/** What a plugin contributes, checked after it booted. */
export interface PluginProvides {
  /** Storage disk names it registers (`local`, `s3`). */
  storage?: string[]
  /** Auth provider ids it registers (`github`). */
  auth?: string[]
  /** Notification channel names it registers (`mail`). */
  notifications?: string[]
  /** Hooks/events of the catalog it handles (informative). */
  hooks?: HookName[]
  /** Whether it contributes to the admin panel. */
  admin?: boolean
}

/** An environment variable the plugin reads. */
export interface PluginEnvVariable {
  /** Upper snake case, prefixed with the plugin's name (`S3_BUCKET`). */
  name: string
  /** Whether the plugin cannot work without it. */
  required: boolean
  description?: string
}

/** A plugin manifest: the single source of truth about a plugin. */
export interface PluginManifest {
  /** Kebab-case id, equal to the plugin's folder name (`local-storage`). */
  id: string
  /** Human name ("Local storage"). */
  displayName: string
  /** The plugin's own semantic version. */
  version: string
  /** Semver range of the host plugin API it works with (`^1.0.0`); see `PLUGIN_API_VERSION`. */
  engine: string
  description?: string
  provides?: PluginProvides
  /** Ids of plugins that must be enabled too; they are loaded first. */
  requires?: string[]
  /**
   * Config categories it adds, or variables it adds to an existing category
   * (`{ id: 'oauth', extend: true, variables }`), registered in the config
   * registry when it loads.
   */
  config?: (ConfigCategoryDefinition | ConfigCategoryExtension)[]
  /** Environment variables it reads. */
  env?: PluginEnvVariable[]
}

/** What the host hands to a plugin provider besides the application. */
export interface PluginContext {
  /** The validated manifest. */
  readonly manifest: PluginManifest
  /** Reads an environment variable (validated ones typed as in `start/env.ts`). */
  readonly env: { get(name: string): any }
  /**
   * Registers the plugin's routes under `/plugins/<id>`, named
   * `plugins.<id>.<name>` (give each route `.as('<name>')`). Call it from
   * `boot()`.
   */
  routes(define: (router: HttpRouterService) => void): Promise<void>
}

/**
 * A plugin provider instance. Every method is optional. The host calls them
 * in dependency order (a plugin after the plugins it requires; `shutdown` in
 * reverse): `register` (bind only), `boot` (contribute to the extension
 * points, add hooks and routes), `start`, `ready` (start background work),
 * `shutdown` (close clients). A throw stops the start with
 * `E_PLUGIN_LIFECYCLE_FAILED` naming the plugin.
 */
export interface PluginProviderContract {
  register?(): void | Promise<void>
  boot?(): void | Promise<void>
  start?(): void | Promise<void>
  ready?(): void | Promise<void>
  shutdown?(): void | Promise<void>
}

/** The class `plugins/<id>/provider.ts` exports by default. */
export type PluginProviderClass = new (
  app: ApplicationService,
  context: PluginContext
) => PluginProviderContract

/** Identity helper typing a manifest (validated when the plugin loads). */
export function definePlugin<const Manifest extends PluginManifest>(manifest: Manifest): Manifest {
  return manifest
}
