/**
 * Which plugin UIs the admin panel loads (pure: unit-tested in
 * tests/unit/admin/plugin_selection.spec.ts). The bundle holds the admin UI
 * of every installed plugin (`plugins/<id>/admin/index.tsx`); only those of
 * plugins the server reports as enabled are kept, in the server's order.
 */

/** The plugin id of a module path `../../plugins/<id>/admin/index.tsx`; null for other paths. */
export function pluginIdOfPath(path: string): string | null {
  const match = /(?:^|\/)plugins\/([^/]+)\/admin\/index\.tsx$/.exec(path)
  return match ? match[1] : null
}

/**
 * The modules of enabled plugins, as `[id, module]` in the order of
 * `enabled`. Modules of disabled or unknown plugins are left out.
 */
export function selectEnabledPlugins<M>(
  modules: Record<string, M>,
  enabled: readonly string[]
): [string, M][] {
  const byId = new Map<string, M>()
  for (const [path, module] of Object.entries(modules)) {
    const id = pluginIdOfPath(path)
    if (id) byId.set(id, module)
  }
  return enabled.filter((id) => byId.has(id)).map((id) => [id, byId.get(id)!])
}
