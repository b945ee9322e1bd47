/**
 * The durable notification outbox, for code that must not import
 * `#services/*`: plugins whose channel fans one routed event out into
 * deliveries of their own (the webhook plugin: one row per URL). The core
 * binds its outbox service at boot (`providers/outbox_provider.ts`); a
 * handler registered before that (a plugin's `boot` runs first) is handed
 * over when it binds.
 *
 * ```ts
 * import { notificationOutbox } from '#extensions/outbox/main'
 *
 * notificationOutbox.handle('sms', { deliver: async (delivery) => sendSms(delivery.target, delivery.payload) })
 * await notificationOutbox.enqueue({ eventId, eventType: 'share.created', channel: 'sms', target: '+4912345', payload })
 * ```
 *
 * Rows of a channel name are handled by that channel's handler; rows the
 * core's `NotificationRouter` stores (payload `{ message }`) go to the
 * channel's `deliver` first, anything else to the handler registered here.
 */
import { createError } from '@adonisjs/core/exceptions'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** Where a delivery stands. */
export type OutboxDeliveryStatus = 'pending' | 'delivered' | 'failed'

/** One delivery (event x channel x target) as a handler sees it. */
export interface OutboxDelivery {
  /** The row id: the same on every attempt (an idempotency key for receivers). */
  id: string
  eventId: string
  eventType: string
  channel: string
  /** The destination (cut to 512 characters): a URL, an address, or '' for the channel's one destination. */
  target: string
  /** What was enqueued (null once delivered). */
  payload: any
  status: OutboxDeliveryStatus
  /** Attempts made or started, the one in progress included (1 on the first attempt). */
  attempts: number
  maxAttempts: number
  nextAttemptAt: number
  lastError: string | null
  createdAt: number
  updatedAt: number
  deliveredAt: number | null
}

/** Waits between attempts: `baseDelayMs * 2^(n-1)` (jittered), at most `maxDelayMs`. */
export interface OutboxRetryPolicy {
  /** Wait after the first failed attempt (ms); doubled after each further one. */
  baseDelayMs: number
  /** Upper bound of any wait (ms), a receiver's `Retry-After` included. */
  maxDelayMs: number
}

/** How a channel's own deliveries are made. */
export interface OutboxHandler {
  /**
   * Makes one attempt; throws to fail it (`NotificationDeliveryError` says whether and when to retry).
   * `signal` aborts at shutdown, when the attempt ran for `OUTBOX_ATTEMPT_TIMEOUT_MS`, or when this
   * instance lost its claim of the delivery: stop then, the delivery is retried later.
   */
  deliver(delivery: OutboxDelivery, signal: AbortSignal): Promise<void>
  /** Waits between attempts (default: the outbox's). */
  retry?: OutboxRetryPolicy
  /** Values that must never be stored in the delivery's last error (signing keys, tokens). */
  secrets?(): Promise<string[]>
  /** Called once a delivery failed for good. */
  failed?(delivery: OutboxDelivery, reason: string): void
}

/** One delivery to store. */
export interface OutboxEnqueueInput {
  /** The event's id: the same (event, channel, target) enqueued twice is kept once. */
  eventId: string
  eventType: string
  channel: string
  target?: string
  payload: unknown
  /** Attempts before the delivery counts as failed (default: the outbox's). */
  maxAttempts?: number
  /** The transaction of the change that caused the event, when there is one. */
  client?: QueryClientContract
}

/** What the core binds: its outbox service. */
export interface NotificationOutboxSource {
  handle(channel: string, handler: OutboxHandler): () => void
  enqueue(input: OutboxEnqueueInput): Promise<string | null>
  idle(channel?: string, timeoutMs?: number): Promise<void>
}

/** `enqueue` or `idle` before the core bound its outbox (a programming error). */
export const E_OUTBOX_UNBOUND = createError(
  'The notification outbox is not available yet: the core binds it while the application boots',
  'E_OUTBOX_UNBOUND',
  500
)

/** The accessor plugins use. Use the `notificationOutbox` singleton; the class is exported for tests. */
export class NotificationOutbox {
  #source?: NotificationOutboxSource
  /** Handlers registered before the bind, and the stop functions the source gave them since. */
  #early = new Map<OutboxHandler, { channel: string; stop?: () => void }>()

  /** Binds the core's outbox (once at boot) and hands it the handlers registered so far. */
  bind(source: NotificationOutboxSource): this {
    this.#source = source
    for (const [handler, entry] of this.#early) entry.stop = source.handle(entry.channel, handler)
    return this
  }

  /** True once the core bound its outbox. */
  get isBound(): boolean {
    return this.#source !== undefined
  }

  /**
   * Makes this process deliver `channel`'s own rows with `handler` (replaces
   * an earlier one). Returns the function that stops it.
   */
  handle(channel: string, handler: OutboxHandler): () => void {
    if (this.#source) return this.#source.handle(channel, handler)
    const entry: { channel: string; stop?: () => void } = { channel }
    this.#early.set(handler, entry)
    return () => {
      this.#early.delete(handler)
      entry.stop?.()
    }
  }

  /** Stores one delivery (kept once per event, channel and target); resolves to its id, or null for a duplicate. */
  enqueue(input: OutboxEnqueueInput): Promise<string | null> {
    return this.#bound().enqueue(input)
  }

  /** Resolves once no delivery of `channel` (all when omitted) is pending; rejects after `timeoutMs`. */
  idle(channel?: string, timeoutMs?: number): Promise<void> {
    return this.#bound().idle(channel, timeoutMs)
  }

  #bound(): NotificationOutboxSource {
    if (!this.#source) throw new E_OUTBOX_UNBOUND()
    return this.#source
  }
}

/** The application's outbox accessor. */
export const notificationOutbox = new NotificationOutbox()
