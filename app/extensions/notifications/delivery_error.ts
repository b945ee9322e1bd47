/**
 * The error a channel throws when one delivery attempt failed, saying
 * whether the outbox should try again and when at the earliest.
 */

/** Options of `NotificationDeliveryError`. */
export interface DeliveryErrorOptions extends ErrorOptions {
  /** Whether another attempt may succeed (network error, 5xx, 429...). Default true. */
  retryable?: boolean
  /** The receiver asked to wait at least this long (e.g. `Retry-After`), in ms. */
  retryAfterMs?: number | null
}

/** See the module comment. Any other error thrown by a channel counts as retryable. */
export class NotificationDeliveryError extends Error {
  readonly code = 'E_NOTIFICATION_DELIVERY_FAILED'
  readonly retryable: boolean
  readonly retryAfterMs: number | null

  constructor(message: string, options: DeliveryErrorOptions = {}) {
    super(message, options)
    this.retryable = options.retryable ?? true
    this.retryAfterMs = options.retryAfterMs ?? null
  }
}
