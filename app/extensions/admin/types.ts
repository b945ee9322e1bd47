/**
 * Contracts of the admin-panel extension point (server side). A plugin
 * describes what it adds to the admin SPA; the SPA (later, Refine) keeps the
 * contributions of the plugins the server reports as enabled and loads the
 * matching `plugins/<id>/admin/index.tsx`.
 */

/** A Refine resource the plugin adds (a list/edit page over one API path). */
export interface AdminResource {
  /** Resource name = API path segment (`storage-disks`). */
  name: string
  /** Label key or text for the menu. */
  label: string
  /** Parent resource name for grouping (Refine `meta.parent`). */
  parent?: string
  /** Hidden from the menu (helper resources). */
  hidden?: boolean
}

/** A menu entry pointing at a page of the admin SPA. */
export interface AdminMenuEntry {
  /** Unique key inside the plugin. */
  key: string
  /** Label key or text. */
  label: string
  /** SPA path below `/admin` (`/plugins/<id>/...`). */
  path: string
  /** Icon name of @ant-design/icons (optional). */
  icon?: string
}

/** Everything one plugin contributes to the admin panel. */
export interface AdminContribution {
  resources?: AdminResource[]
  menu?: AdminMenuEntry[]
  /** Config categories of the plugin to show in the settings pages. */
  configCategories?: string[]
}

/** A contribution as the registry reports it. */
export interface PluginAdminContribution extends Required<AdminContribution> {
  pluginId: string
}

/** What the admin SPA receives: enabled plugin ids and their contributions. */
export interface AdminPluginsManifest {
  enabledPlugins: string[]
  contributions: PluginAdminContribution[]
}
