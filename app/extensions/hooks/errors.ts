/** Errors of the hooks extension point. */
import { Exception } from '@adonisjs/core/exceptions'

/**
 * Thrown by a filter handler to refuse the operation. The HTTP layer answers
 * with its `status` (403 by default) and message.
 */
export class HookRefusedException extends Exception {
  static status = 403
  static code = 'E_HOOK_REFUSED'

  /** The machine key the API answers in `error` (optional). */
  errorKey?: string

  /**
   * @param message shown to the client
   * @param options `status` (default 403), `errorKey`, `cause`
   */
  constructor(
    message: string,
    options: { status?: number; errorKey?: string; cause?: unknown } = {}
  ) {
    super(message, { status: options.status ?? 403, code: 'E_HOOK_REFUSED', cause: options.cause })
    this.errorKey = options.errorKey
  }
}
