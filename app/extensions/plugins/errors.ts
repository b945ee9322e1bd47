/**
 * Coded errors of the plugin system. Each message is one line that names the
 * plugin (and the field or requirement at fault): the start prints it as is.
 */
import { createError } from '@adonisjs/core/exceptions'

/** TERN_PLUGINS names a plugin no plugin folder provides. */
export const E_PLUGIN_UNKNOWN = createError<[id: string, searched: string]>(
  'Unknown plugin "%s" in TERN_PLUGINS: no plugin folder of that name with a manifest in %s',
  'E_PLUGIN_UNKNOWN',
  500
)

/** The same id is enabled twice or provided by two folders. */
export const E_PLUGIN_DUPLICATE_ID = createError<[id: string, reason: string]>(
  'Duplicate plugin id "%s": %s',
  'E_PLUGIN_DUPLICATE_ID',
  500
)

/** A plugin requires another plugin that is not enabled. */
export const E_PLUGIN_DEPENDENCY_MISSING = createError<[id: string, requirement: string]>(
  'Plugin "%s" requires plugin "%s", which is not enabled (add it to TERN_PLUGINS)',
  'E_PLUGIN_DEPENDENCY_MISSING',
  500
)

/** Plugins require each other in a cycle. */
export const E_PLUGIN_DEPENDENCY_CYCLE = createError<[cycle: string]>(
  'Plugins require each other in a cycle: %s',
  'E_PLUGIN_DEPENDENCY_CYCLE',
  500
)

/** The plugin's engine range does not accept the host plugin API version. */
export const E_PLUGIN_ENGINE_MISMATCH = createError<[id: string, engine: string, host: string]>(
  'Plugin "%s" needs plugin API "%s" but this Tern provides %s',
  'E_PLUGIN_ENGINE_MISMATCH',
  500
)

/** The manifest (or provider module) is missing, malformed or fails validation. */
export const E_PLUGIN_INVALID_MANIFEST = createError<[id: string, problem: string]>(
  'Invalid manifest of plugin "%s": %s',
  'E_PLUGIN_INVALID_MANIFEST',
  500
)

/** A required environment variable of a plugin is not set. */
export const E_PLUGIN_ENV_MISSING = createError<[id: string, name: string]>(
  'Plugin "%s" needs the environment variable %s, which is not set',
  'E_PLUGIN_ENV_MISSING',
  500
)

/** A plugin provider's lifecycle method threw (the error is the `cause`). */
export const E_PLUGIN_LIFECYCLE_FAILED = createError<[id: string, phase: string, message: string]>(
  'Plugin "%s" failed in %s: %s',
  'E_PLUGIN_LIFECYCLE_FAILED',
  500
)

/** A plugin declares in `provides` something it did not register. */
export const E_PLUGIN_PROVIDES_MISMATCH = createError<[id: string, problem: string]>(
  'Plugin "%s" %s',
  'E_PLUGIN_PROVIDES_MISMATCH',
  500
)

/** True for the errors above (their `code` starts with `E_PLUGIN_`). */
export function isPluginError(error: unknown): error is Error & { code: string } {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined
  return typeof code === 'string' && code.startsWith('E_PLUGIN_')
}
