/**
 * The registry of loaded plugins (bound as `tern.plugins`): their manifests
 * in load order, their provider instances, and the lifecycle driver.
 */
import type { ApplicationService } from '@adonisjs/core/types'
import type { ConfigCategoryDefinition, ConfigCategoryExtension } from '#extensions/config/types'
import type { PluginContext, PluginManifest, PluginProviderContract } from './define_plugin.js'
import {
  E_PLUGIN_ENV_MISSING,
  E_PLUGIN_INVALID_MANIFEST,
  E_PLUGIN_LIFECYCLE_FAILED,
  E_PLUGIN_PROVIDES_MISMATCH,
} from './errors.js'
import type { LoadedPlugin } from './plugin_loader.js'

/** A lifecycle phase of plugin providers. */
export type PluginPhase = 'register' | 'boot' | 'start' | 'ready' | 'shutdown'

/** Where `verifyProvides` looks for declared contributions. */
export interface ProvidedLookup {
  storage: { has(name: string): boolean }
  auth: { has(id: string): boolean }
  notifications: { has(name: string): boolean }
  admin: { has(pluginId: string): boolean }
}

/** Holds the loaded plugins and drives their providers. */
export class PluginRegistry {
  #plugins: LoadedPlugin[] = []
  #instances = new Map<string, PluginProviderContract>()

  /** Records the loaded plugins (already in dependency order). Replaces a previous set. */
  use(plugins: LoadedPlugin[]): this {
    this.#plugins = [...plugins]
    this.#instances.clear()
    return this
  }

  /** Enabled plugin ids in load (dependency) order. */
  ids(): string[] {
    return this.#plugins.map((plugin) => plugin.manifest.id)
  }

  /** True when plugin `id` is loaded. */
  has(id: string): boolean {
    return this.#plugins.some((plugin) => plugin.manifest.id === id)
  }

  /** The manifest of plugin `id`, or undefined. */
  get(id: string): PluginManifest | undefined {
    return this.#plugins.find((plugin) => plugin.manifest.id === id)?.manifest
  }

  /** Every loaded manifest, in load order. */
  list(): PluginManifest[] {
    return this.#plugins.map((plugin) => plugin.manifest)
  }

  /** The folder plugin `id` was loaded from, or undefined. */
  directory(id: string): URL | undefined {
    return this.#plugins.find((plugin) => plugin.manifest.id === id)?.directory
  }

  /**
   * Throws `E_PLUGIN_ENV_MISSING` for the first plugin whose manifest marks an
   * environment variable as required while `read(name)` has no value for it.
   */
  checkEnvironment(read: (name: string) => unknown): this {
    for (const { manifest } of this.#plugins) {
      const isUnset = (name: string) => [undefined, null, ''].includes(read(name) as string)
      const missing = (manifest.env ?? []).find(
        (variable) => variable.required && isUnset(variable.name)
      )
      if (missing) throw new E_PLUGIN_ENV_MISSING([manifest.id, missing.name])
    }
    return this
  }

  /**
   * Registers every plugin's config categories (with `source` = plugin id)
   * through `define` (the config registry's `defineCategory`). A refused
   * category throws `E_PLUGIN_INVALID_MANIFEST` naming the plugin and entry.
   */
  defineConfigCategories(
    define: (definition: ConfigCategoryDefinition | ConfigCategoryExtension) => unknown
  ): void {
    for (const { manifest } of this.#plugins) {
      ;(manifest.config ?? []).forEach((category, index) => {
        try {
          define({ ...category, source: manifest.id })
        } catch (error) {
          const problem = `field "config.${index}" ${(error as Error).message}`
          throw new E_PLUGIN_INVALID_MANIFEST([manifest.id, problem], { cause: error })
        }
      })
    }
  }

  /** Creates each plugin's provider instance (plugins without one are skipped). */
  instantiate(
    app: ApplicationService,
    contextOf: (manifest: PluginManifest) => PluginContext
  ): void {
    for (const { manifest, Provider } of this.#plugins) {
      if (!Provider) continue
      try {
        this.#instances.set(manifest.id, new Provider(app, contextOf(manifest)))
      } catch (error) {
        throw new E_PLUGIN_LIFECYCLE_FAILED(
          [manifest.id, 'constructor', (error as Error).message],
          {
            cause: error,
          }
        )
      }
    }
  }

  /**
   * Calls `phase` on every provider in load order (reverse order for
   * `shutdown`), one after the other. The first failure stops the phase and
   * throws `E_PLUGIN_LIFECYCLE_FAILED`; during `shutdown` every provider is
   * still called and the first failure is thrown at the end.
   */
  async run(phase: PluginPhase): Promise<void> {
    const order = phase === 'shutdown' ? [...this.#plugins].reverse() : this.#plugins
    let failure: Error | undefined
    for (const { manifest } of order) {
      const instance = this.#instances.get(manifest.id)
      const method = instance?.[phase]
      if (!instance || typeof method !== 'function') continue
      try {
        await method.call(instance)
      } catch (error) {
        const wrapped = new E_PLUGIN_LIFECYCLE_FAILED(
          [manifest.id, phase, (error as Error).message],
          {
            cause: error,
          }
        )
        if (phase !== 'shutdown') throw wrapped
        failure ??= wrapped
      }
    }
    if (failure) throw failure
  }

  /**
   * Checks that every plugin registered what its manifest's `provides`
   * declares. Throws `E_PLUGIN_PROVIDES_MISMATCH` naming the plugin and item.
   */
  verifyProvides(lookup: ProvidedLookup): void {
    for (const { manifest } of this.#plugins) {
      const provides = manifest.provides ?? {}
      const checks: Array<[string, string[], { has(name: string): boolean }]> = [
        ['storage disk', provides.storage ?? [], lookup.storage],
        ['auth provider', provides.auth ?? [], lookup.auth],
        ['notification channel', provides.notifications ?? [], lookup.notifications],
      ]
      for (const [kind, names, registry] of checks) {
        const missing = names.find((name) => !registry.has(name))
        if (missing) {
          throw new E_PLUGIN_PROVIDES_MISMATCH([
            manifest.id,
            `declares ${kind} "${missing}" in provides but did not register it`,
          ])
        }
      }
      if (provides.admin && !lookup.admin.has(manifest.id)) {
        throw new E_PLUGIN_PROVIDES_MISMATCH([
          manifest.id,
          'declares provides.admin but contributed nothing',
        ])
      }
    }
  }
}
