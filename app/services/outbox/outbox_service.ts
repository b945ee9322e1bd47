/**
 * The durable notification outbox. Features and plugins enqueue one row per
 * event and channel (and target) before answering, in the transaction of the
 * change when there is one; the worker of whichever instance claims a row
 * delivers it, with retries and back-off; a row that keeps failing ends as
 * "failed", listed for admins, who may retry or discard it.
 *
 * ```ts
 * import OutboxService from '#services/outbox/outbox_service'
 *
 * const outbox = await app.container.make(OutboxService) // or inject it
 * outbox.handle('sms', { deliver: async (delivery) => sendSms(delivery.payload) })
 * await outbox.enqueue({ eventId: share.id, eventType: 'share:completed', channel: 'sms', payload, maxAttempts: 5 })
 * ```
 *
 * Env: OUTBOX_POLL_INTERVAL_MS (2000), OUTBOX_LEASE_MS (15000: a claim
 * lasts that long unless renewed, every third of it while its attempt runs),
 * OUTBOX_ATTEMPT_TIMEOUT_MS (300000), OUTBOX_MAX_ATTEMPTS (8),
 * OUTBOX_RETRY_BASE_DELAY_MS (5000), OUTBOX_RETRY_MAX_DELAY_MS (900000).
 */
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type { OutboxRetryPolicy } from '#services/outbox/backoff'
import {
  insertDelivery,
  OUTBOX_TABLE,
  toDelivery,
  type EnqueueInput,
  type OutboxDelivery,
} from '#services/outbox/outbox_store'
import { OutboxWorker, type OutboxHandler } from '#services/outbox/outbox_worker'

export type { OutboxDelivery, EnqueueInput } from '#services/outbox/outbox_store'
export type { OutboxHandler } from '#services/outbox/outbox_worker'

/** Defaults of the env variables (see the module comment). */
export const OUTBOX_DEFAULTS = {
  pollMs: 2000,
  leaseMs: 15_000,
  attemptTimeoutMs: 300_000,
  maxAttempts: 8,
  retry: { baseDelayMs: 5000, maxDelayMs: 900_000 } satisfies OutboxRetryPolicy,
}

/**
 * See the module comment. One per process (it holds the handlers and the
 * worker): the container holds it as a singleton (providers/outbox_provider.ts),
 * so resolve or inject it; `new OutboxService(read)` is for tests.
 */
export default class OutboxService {
  readonly handlers = new Map<string, OutboxHandler>()
  readonly maxAttempts: number
  readonly worker: OutboxWorker
  /** Start the worker on the first enqueue, idle or retry (test processes: after their migrations ran). */
  startOnDemand = false

  constructor(read: (name: string) => number | undefined = (name) => env.get(name as never)) {
    this.maxAttempts = Math.max(1, read('OUTBOX_MAX_ATTEMPTS') ?? OUTBOX_DEFAULTS.maxAttempts)
    const baseDelayMs = read('OUTBOX_RETRY_BASE_DELAY_MS') ?? OUTBOX_DEFAULTS.retry.baseDelayMs
    const retry = {
      baseDelayMs,
      maxDelayMs: Math.max(
        baseDelayMs,
        read('OUTBOX_RETRY_MAX_DELAY_MS') ?? OUTBOX_DEFAULTS.retry.maxDelayMs
      ),
    }
    this.worker = new OutboxWorker(
      this.handlers,
      {
        pollMs: Math.max(10, read('OUTBOX_POLL_INTERVAL_MS') ?? OUTBOX_DEFAULTS.pollMs),
        leaseMs: Math.max(1000, read('OUTBOX_LEASE_MS') ?? OUTBOX_DEFAULTS.leaseMs),
        attemptTimeoutMs: Math.max(
          1000,
          read('OUTBOX_ATTEMPT_TIMEOUT_MS') ?? OUTBOX_DEFAULTS.attemptTimeoutMs
        ),
        batchSize: 10,
        retry,
      },
      // The logger service is ready only once the application booted: look it up at each call.
      {
        warn: (bindings, message) => logger.warn(bindings, message),
        error: (bindings, message) => logger.error(bindings, message),
      }
    )
  }

  /** Makes this process deliver `channel`'s rows with `handler` (replaces an earlier one). */
  handle(channel: string, handler: OutboxHandler): () => void {
    this.handlers.set(channel, handler)
    this.worker.kick()
    return () => {
      if (this.handlers.get(channel) === handler) this.handlers.delete(channel)
    }
  }

  /**
   * Stores one delivery (a second enqueue of the same event, channel and
   * target is ignored) and wakes the local worker. `maxAttempts` defaults to
   * OUTBOX_MAX_ATTEMPTS. Resolves to the row id, or null for a duplicate.
   */
  async enqueue(
    input: Omit<EnqueueInput, 'maxAttempts'> & { maxAttempts?: number }
  ): Promise<string | null> {
    const id = await insertDelivery({
      ...input,
      maxAttempts: input.maxAttempts ?? this.maxAttempts,
    })
    this.#wake()
    // Inside a transaction the row is visible to the worker only after commit.
    const transaction = input.client as
      { after?: (event: 'commit', handler: () => void) => void } | undefined
    transaction?.after?.('commit', () => this.worker.kick())
    return id
  }

  /**
   * Resolves once no delivery of `channel` (all when omitted) is pending:
   * delivered, failed or discarded (for tests and shutdown). Kicks the worker
   * while waiting; rejects after `timeoutMs`.
   */
  async idle(channel?: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    this.#wake()
    for (;;) {
      await this.worker.settled()
      const query = db.from(OUTBOX_TABLE).where('status', 'pending')
      if (channel) query.where('channel', channel)
      const row = await query.select('id').first()
      if (!row) return
      if (Date.now() > deadline)
        throw new Error(
          `Notification outbox: ${channel ?? 'deliveries'} still pending after ${timeoutMs} ms`
        )
      this.worker.kick()
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** Deliveries with `status` (of `channel` when given), newest first (payloads are not included). */
  async list(
    status: OutboxDelivery['status'],
    limit = 500,
    channel?: string
  ): Promise<OutboxDelivery[]> {
    const query = db.from(OUTBOX_TABLE).where('status', status)
    if (channel) query.where('channel', channel)
    const rows = await query.orderBy('updated_at', 'desc').limit(limit)
    return rows.map((row) => ({ ...toDelivery({ ...row, payload: null }) }))
  }

  /** One delivery, or null. */
  async find(id: string): Promise<OutboxDelivery | null> {
    const row = await db.from(OUTBOX_TABLE).where('id', id).first()
    return row ? toDelivery(row) : null
  }

  /** Makes a failed delivery pending again, with fresh attempts, due now. False unless it was failed. */
  async retry(id: string): Promise<boolean> {
    const now = Date.now()
    const updated = await db.from(OUTBOX_TABLE).where({ id, status: 'failed' }).update({
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      locked_by: null,
      updated_at: now,
    })
    this.#wake()
    return Number(Array.isArray(updated) ? updated[0] : updated) === 1
  }

  #wake(): void {
    if (this.startOnDemand && !this.worker.started) this.worker.start()
    else this.worker.kick()
  }

  /** Deletes a failed delivery. False unless it was failed. */
  async discard(id: string): Promise<boolean> {
    const deleted = await db.from(OUTBOX_TABLE).where({ id, status: 'failed' }).delete()
    return Number(Array.isArray(deleted) ? deleted[0] : deleted) === 1
  }
}

/** The outbox's type under its former name (the webhook plugin's option). */
export type Outbox = OutboxService

/**
 * The outbox of this process, the instance the container's `OutboxService`
 * singleton is (and plugins' `notificationOutbox`, #extensions/outbox/main,
 * is bound to). Everything else resolves `OutboxService`.
 */
export const outbox = new OutboxService()
