/**
 * Registry of admin-panel contributions, keyed by plugin id.
 */
import { createError } from '@adonisjs/core/exceptions'
import type { AdminContribution, AdminPluginsManifest, PluginAdminContribution } from './types.js'

/** A plugin contributed twice. */
export const E_ADMIN_CONTRIBUTION_EXISTS = createError<[pluginId: string]>(
  'Plugin "%s" already contributed to the admin panel',
  'E_ADMIN_CONTRIBUTION_EXISTS',
  500
)

/** Holds one contribution per plugin. */
export class AdminContributionRegistry {
  #contributions = new Map<string, PluginAdminContribution>()

  /**
   * Records `pluginId`'s contribution (missing lists become empty). Throws
   * `E_ADMIN_CONTRIBUTION_EXISTS` when the plugin already contributed.
   */
  contribute(pluginId: string, contribution: AdminContribution): this {
    if (this.#contributions.has(pluginId)) throw new E_ADMIN_CONTRIBUTION_EXISTS([pluginId])
    this.#contributions.set(pluginId, {
      pluginId,
      resources: contribution.resources ?? [],
      menu: contribution.menu ?? [],
      configCategories: contribution.configCategories ?? [],
    })
    return this
  }

  /** True when `pluginId` contributed. */
  has(pluginId: string): boolean {
    return this.#contributions.has(pluginId)
  }

  /** Every contribution, in registration order. */
  all(): PluginAdminContribution[] {
    return [...this.#contributions.values()]
  }

  /**
   * The admin SPA's view: `enabledPlugins` as given, and the contributions of
   * those plugins only (in the order of `enabledPlugins`).
   */
  manifest(enabledPlugins: string[]): AdminPluginsManifest {
    return {
      enabledPlugins: [...enabledPlugins],
      contributions: enabledPlugins
        .map((id) => this.#contributions.get(id))
        .filter((c): c is PluginAdminContribution => c !== undefined),
    }
  }
}
