/**
 * Plugin UIs of the admin panel. A plugin may ship `plugins/<id>/admin/index.tsx`
 * exporting `adminPlugin` (an `AdminPluginUi`); every such file is bundled
 * (eager glob), and only the plugins the server reports as enabled
 * (`adminPluginsManifest()`, in the shell's boot data) are used.
 *
 * ```tsx
 * // plugins/s3-storage/admin/index.tsx
 * import type { AdminPluginUi } from '~/admin/plugins'
 * export const adminPlugin: AdminPluginUi = {
 *   resources: [{ name: 'storage-disks', list: '/plugins/s3-storage', meta: { label: 'Disks' } }],
 *   routes: [{ path: 'plugins/s3-storage', element: <DisksPage /> }],
 * }
 * ```
 */
import type { ReactNode } from 'react'
import type { ResourceProps } from '@refinedev/core'
import { selectEnabledPlugins } from '~/admin/lib/plugin_selection'

/** What a plugin adds to the admin panel. */
export interface AdminPluginUi {
  /** Refine resources (name = API path segment; group them with `meta.parent`). */
  resources?: ResourceProps[]
  /** Pages of the plugin, paths relative to `/admin` (`plugins/<id>/...`). */
  routes?: { path: string; element: ReactNode }[]
}

/** The module a plugin's `admin/index.tsx` is. */
export interface AdminPluginModule {
  adminPlugin?: AdminPluginUi
}

const modules = import.meta.glob<AdminPluginModule>('../../plugins/*/admin/index.tsx', {
  eager: true,
})

/** The UIs of the enabled plugins, in the server's order (`[pluginId, ui]`). */
export function enabledPluginUis(enabled: readonly string[]): [string, AdminPluginUi][] {
  return selectEnabledPlugins(modules, enabled)
    .filter(([, module]) => module.adminPlugin)
    .map(([id, module]) => [id, module.adminPlugin!])
}
