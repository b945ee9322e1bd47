/**
 * The hooks extension point's public surface: the process-wide runner (also
 * bound as `tern.hooks`), the catalog and the refusal exception.
 */
import { HookRunner } from './runner.js'

/** The application's hook runner. */
export const hooks = new HookRunner()

export { HookRunner } from './runner.js'
export { HookRefusedException } from './errors.js'
export * from './types.js'
