/**
 * The admin-panel extension point's public surface: the process-wide
 * registry (also bound as `tern.admin`) and `adminPluginsManifest()`.
 */
import { pluginRegistry } from '#extensions/plugins/main'
import { AdminContributionRegistry } from './admin_registry.js'
import type { AdminPluginsManifest } from './types.js'

/** The application's admin-contribution registry. */
export const adminContributions = new AdminContributionRegistry()

/** Enabled plugin ids (in load order) and their admin contributions, for the admin SPA. */
export function adminPluginsManifest(): AdminPluginsManifest {
  return adminContributions.manifest(pluginRegistry.ids())
}

export { AdminContributionRegistry, E_ADMIN_CONTRIBUTION_EXISTS } from './admin_registry.js'
export type * from './types.js'
