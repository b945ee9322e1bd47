/**
 * The plugin system's public surface: the process-wide registry (bound as
 * `tern.plugins`), `definePlugin`, the host API version and the errors.
 */
import { PluginRegistry } from './plugin_registry.js'

/** The application's plugin registry. */
export const pluginRegistry = new PluginRegistry()

export { PluginRegistry, type PluginPhase } from './plugin_registry.js'
export { definePlugin } from './define_plugin.js'
export type * from './define_plugin.js'
export { PLUGIN_API_VERSION } from './version.js'
export * as pluginErrors from './errors.js'
export { isPluginError } from './errors.js'
export {
  DEFAULT_PLUGINS,
  loadPlugins,
  parseEnabledPlugins,
  pluginSearchPaths,
  type LoadedPlugin,
} from './plugin_loader.js'
