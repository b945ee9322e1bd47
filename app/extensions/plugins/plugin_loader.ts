/**
 * Finds, imports and checks the enabled plugins. Only the enabled plugins'
 * files are imported (lazy `import()`), so an installed but disabled plugin
 * costs nothing. Every failure is a coded `E_PLUGIN_*` error naming the plugin.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import type { PluginManifest, PluginProviderClass } from './define_plugin.js'
import {
  E_PLUGIN_DEPENDENCY_CYCLE,
  E_PLUGIN_DEPENDENCY_MISSING,
  E_PLUGIN_DUPLICATE_ID,
  E_PLUGIN_ENGINE_MISMATCH,
  E_PLUGIN_INVALID_MANIFEST,
  E_PLUGIN_UNKNOWN,
} from './errors.js'
import { validateManifest } from './manifest_schema.js'
import { satisfies } from './semver.js'
import { PLUGIN_API_VERSION } from './version.js'

/**
 * The plugins enabled when TERN_PLUGINS is not set. The sign-in providers
 * are in the set because their settings are core "Social Login" variables,
 * and LDAP because Pingvin Share had its settings built in; each stays off
 * until an admin switches it on (ldapts is imported at the first LDAP sign-in).
 */
export const DEFAULT_PLUGINS: readonly string[] = [
  'local-storage',
  'email',
  'oidc',
  'github',
  'google',
  'discord',
  'microsoft',
  'ldap',
]

/** A plugin folder found for an enabled id. */
export interface PluginSource {
  id: string
  /** The folder (URL ending with `/`). */
  directory: URL
}

/** A plugin whose manifest is valid, ready for its lifecycle. */
export interface LoadedPlugin {
  manifest: PluginManifest
  directory: URL
  /** The provider class, when the plugin has a `provider` file. */
  Provider?: PluginProviderClass
}

/**
 * The enabled plugin ids from the value of TERN_PLUGINS (comma separated,
 * blanks ignored). Undefined means the default set; an empty value means no
 * plugin. Throws `E_PLUGIN_DUPLICATE_ID` when an id is listed twice.
 */
export function parseEnabledPlugins(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_PLUGINS]
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
  const seen = new Set<string>()
  for (const id of ids) {
    if (seen.has(id)) throw new E_PLUGIN_DUPLICATE_ID([id, 'it is listed twice in TERN_PLUGINS'])
    seen.add(id)
  }
  return ids
}

/**
 * The folders searched for plugins: `<appRoot>/plugins/` first, then each
 * comma-separated entry of TERN_PLUGIN_PATHS (absolute, or relative to the
 * application root).
 */
export function pluginSearchPaths(appRoot: URL, extraPaths?: string): URL[] {
  const root = fileURLToPath(appRoot)
  const extra = (extraPaths ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean)
  const folders = [resolve(root, 'plugins'), ...extra.map((path) => resolve(root, path))]
  return folders.map((path) => pathToFileURL(path.endsWith('/') ? path : `${path}/`))
}

/** True when `directory` holds `<name>.ts` or `<name>.js`. */
function hasModule(directory: URL, name: string): boolean {
  return (
    existsSync(new URL(`${name}.ts`, directory)) || existsSync(new URL(`${name}.js`, directory))
  )
}

/**
 * Finds the folder of plugin `id` among `searchPaths` (a folder counts when it
 * holds a manifest). Throws `E_PLUGIN_UNKNOWN` when none does and
 * `E_PLUGIN_DUPLICATE_ID` when two do.
 */
export function locatePlugin(id: string, searchPaths: URL[]): PluginSource {
  const found = /^[a-z][a-z0-9-]*$/.test(id)
    ? searchPaths.map((path) => new URL(`${id}/`, path)).filter((dir) => hasModule(dir, 'manifest'))
    : []
  if (found.length === 0) {
    throw new E_PLUGIN_UNKNOWN([id, searchPaths.map((path) => fileURLToPath(path)).join(', ')])
  }
  if (found.length > 1) {
    const folders = found.map((dir) => fileURLToPath(dir)).join(' and ')
    throw new E_PLUGIN_DUPLICATE_ID([id, `two plugin folders provide it (${folders})`])
  }
  return { id, directory: found[0] }
}

/**
 * Imports a plugin's manifest (export `manifest`, or the default export) and
 * provider (default export), validating the manifest. `.js` specifiers
 * resolve to the `.ts` sources in development and to the compiled files in
 * `build/`. Throws `E_PLUGIN_INVALID_MANIFEST`.
 */
export async function importPlugin(source: PluginSource): Promise<LoadedPlugin> {
  const load = async (file: string) => {
    try {
      return await import(new URL(`${file}.js`, source.directory).href)
    } catch (error) {
      const message = (error as Error).message?.split('\n')[0]
      throw new E_PLUGIN_INVALID_MANIFEST([source.id, `cannot load ${file}: ${message}`], {
        cause: error,
      })
    }
  }
  const manifestModule = await load('manifest')
  const manifest = await validateManifest(
    source.id,
    manifestModule.manifest ?? manifestModule.default
  )
  if (!hasModule(source.directory, 'provider')) return { manifest, directory: source.directory }
  const { default: Provider } = await load('provider')
  if (typeof Provider !== 'function') {
    throw new E_PLUGIN_INVALID_MANIFEST([
      source.id,
      'provider must export a provider class by default',
    ])
  }
  return { manifest, directory: source.directory, Provider }
}

/** Throws `E_PLUGIN_ENGINE_MISMATCH` unless the plugin's engine range accepts `hostVersion`. */
export function checkEngine(
  manifest: PluginManifest,
  hostVersion: string = PLUGIN_API_VERSION
): void {
  if (!satisfies(hostVersion, manifest.engine)) {
    throw new E_PLUGIN_ENGINE_MISMATCH([manifest.id, manifest.engine, hostVersion])
  }
}

/**
 * Orders plugins so each comes after the plugins it requires, keeping the
 * given order otherwise. Throws `E_PLUGIN_DEPENDENCY_MISSING` when a
 * requirement is not among `plugins`, `E_PLUGIN_DEPENDENCY_CYCLE` on a cycle.
 */
export function orderByDependencies<T extends { manifest: PluginManifest }>(plugins: T[]): T[] {
  const byId = new Map(plugins.map((plugin) => [plugin.manifest.id, plugin]))
  for (const plugin of plugins) {
    for (const requirement of plugin.manifest.requires ?? []) {
      if (!byId.has(requirement))
        throw new E_PLUGIN_DEPENDENCY_MISSING([plugin.manifest.id, requirement])
    }
  }
  const ordered: T[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (plugin: T, path: string[]) => {
    const id = plugin.manifest.id
    if (state.get(id) === 'done') return
    if (state.get(id) === 'visiting')
      throw new E_PLUGIN_DEPENDENCY_CYCLE([[...path, id].join(' -> ')])
    state.set(id, 'visiting')
    for (const requirement of plugin.manifest.requires ?? [])
      visit(byId.get(requirement)!, [...path, id])
    state.set(id, 'done')
    ordered.push(plugin)
  }
  for (const plugin of plugins) visit(plugin, [])
  return ordered
}

/** Options of `loadPlugins`. */
export interface LoadPluginsOptions {
  /** Enabled ids (see `parseEnabledPlugins`). */
  enabled: string[]
  /** Folders to search (see `pluginSearchPaths`). */
  searchPaths: URL[]
  /** Host plugin API version (default `PLUGIN_API_VERSION`). */
  hostVersion?: string
}

/**
 * Locates, imports and validates every enabled plugin, checks engines and
 * requirements, and resolves to the plugins in dependency order. Checks run
 * in this order: unknown/duplicate ids, manifests, engines, requirements.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugin[]> {
  const sources = options.enabled.map((id) => locatePlugin(id, options.searchPaths))
  const plugins: LoadedPlugin[] = []
  for (const source of sources) plugins.push(await importPlugin(source))
  for (const plugin of plugins) checkEngine(plugin.manifest, options.hostVersion)
  return orderByDependencies(plugins)
}
