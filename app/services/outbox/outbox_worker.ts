/**
 * The loop that works the outbox in this process: it claims due deliveries
 * of the channels that have a handler here, runs the handler once per claim
 * and records the outcome (delivered, retry later with back-off, failed). It
 * wakes on `kick()` (something was enqueued here), when a retry of its own
 * falls due, and every `pollMs` for work enqueued by other instances.
 *
 * Attempts run detached from the pass that claimed them (at most
 * `maxInFlight` at once), so a receiver that hangs until its timeout holds
 * only its own delivery: rows stored meanwhile are claimed by the next pass
 * and delivered beside it.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { NotificationDeliveryError } from '#extensions/notifications/delivery_error'
import { faultPoint } from '#services/files/fault_points'
import type { OutboxHandler } from '#extensions/outbox/main'
import { outboxRetryDelay, type OutboxRetryPolicy } from '#services/outbox/backoff'
import { claimDue, markAttemptFailed, markDelivered, purgeDelivered, type OutboxDelivery } from '#services/outbox/outbox_store'
import { redactDeliveryError } from '#services/outbox/redact'

// How a channel's deliveries are made: the contract plugins see, defined once there.
export type { OutboxHandler } from '#extensions/outbox/main'

/** The logger surface the worker needs. */
export interface OutboxLogger {
  warn(bindings: Record<string, unknown>, message: string): void
  error(bindings: Record<string, unknown>, message: string): void
}

/** Timings of the worker. */
export interface OutboxWorkerOptions {
  pollMs: number
  leaseMs: number
  batchSize: number
  retry: OutboxRetryPolicy
  /** Attempts running at once in this process (default 32). */
  maxInFlight?: number
}

/** Delivered rows are kept this long (for the admin's `status=delivered` list), then purged. */
export const KEEP_DELIVERED_MS = 7 * 24 * 60 * 60_000
const PURGE_EVERY_MS = 60 * 60_000

/** See the module comment. */
export class OutboxWorker {
  readonly id = `${hostname().slice(0, 20)}:${process.pid}:${randomUUID().slice(0, 8)}`
  #timer?: NodeJS.Timeout
  #running?: Promise<void>
  #again = false
  #stopped = true
  #shutdown = new AbortController()
  #failing = false
  #purgedAt = 0
  #inFlight = new Set<Promise<void>>()

  constructor(
    protected handlers: Map<string, OutboxHandler>,
    protected options: OutboxWorkerOptions,
    protected logger: OutboxLogger
  ) {}

  /** True between `start()` and `stop()`. */
  get started(): boolean {
    return !this.#stopped
  }

  /** Starts polling (a first pass runs at once). */
  start(): void {
    if (!this.#stopped) return
    this.#stopped = false
    this.#shutdown = new AbortController()
    this.kick()
  }

  /** Stops polling, aborts attempts in flight (they are retried later) and waits for the pass and them to end. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#shutdown.abort()
    clearTimeout(this.#timer)
    await this.#running
    await Promise.all(this.#inFlight)
  }

  /** Runs a pass soon (now, or right after the current one). */
  kick(): void {
    if (this.#stopped) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#schedule(0)
  }

  /** Resolves when the pass in progress (if any) and the attempts it started have ended. */
  async settled(): Promise<void> {
    while (this.#running || this.#inFlight.size > 0) {
      await this.#running
      await Promise.all(this.#inFlight)
    }
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.#pass(), ms).unref()
  }

  #pass(): void {
    if (this.#stopped || this.#running) return
    this.#running = this.#work()
      .catch((error) => {
        // Log an outage once, not at every poll; say when it is over.
        if (!this.#failing) this.logger.error({ err: error }, 'Notification outbox: polling failed')
        this.#failing = true
      })
      .finally(() => {
        this.#running = undefined
        if (this.#stopped) return
        const again = this.#again
        this.#again = false
        this.#schedule(again ? 0 : this.options.pollMs)
      })
  }

  async #work(): Promise<void> {
    if (Date.now() - this.#purgedAt > PURGE_EVERY_MS) {
      this.#purgedAt = Date.now()
      await purgeDelivered(Date.now() - KEEP_DELIVERED_MS)
    }
    for (;;) {
      const room = Math.min(this.options.batchSize, (this.options.maxInFlight ?? 32) - this.#inFlight.size)
      // Full: the first attempt to end kicks the next pass.
      if (room <= 0) return
      const claimed = await claimDue([...this.handlers.keys()], this.id, this.options.leaseMs, room)
      if (this.#failing) this.logger.warn({}, 'Notification outbox: polling works again')
      this.#failing = false
      for (const delivery of claimed) this.#track(delivery)
      if (claimed.length < room || this.#stopped) return
    }
  }

  /** Runs an attempt beside the others; its end makes room, so it kicks a pass when the worker was full. */
  #track(delivery: OutboxDelivery): void {
    const full = () => this.#inFlight.size >= (this.options.maxInFlight ?? 32)
    const attempt: Promise<void> = this.#attempt(delivery)
      .catch((error) => {
        // Recording the outcome failed (database down): the lease expires and the row is claimed again.
        this.logger.error({ err: error, delivery: delivery.id }, 'Notification outbox: recording an attempt failed')
      })
      .finally(() => {
        const wasFull = full()
        this.#inFlight.delete(attempt)
        if (wasFull) this.kick()
      })
    this.#inFlight.add(attempt)
  }

  async #attempt(delivery: OutboxDelivery): Promise<void> {
    const handler = this.handlers.get(delivery.channel)
    if (!handler) return
    try {
      // An attempt never outlives its lease, or another instance could take the row while it runs.
      const lease = AbortSignal.timeout(Math.max(500, this.options.leaseMs - 1000))
      await faultPoint('outbox-claimed', `${delivery.channel}:${delivery.target}`)
      await handler.deliver(delivery, AbortSignal.any([this.#shutdown.signal, lease]))
      await markDelivered(delivery.id, this.id)
      return
    } catch (error) {
      await this.#failed(delivery, handler, error)
    }
  }

  async #failed(delivery: OutboxDelivery, handler: OutboxHandler, error: unknown): Promise<void> {
    const secrets = (await handler.secrets?.().catch(() => [])) ?? []
    const reason = redactDeliveryError(reasonOf(error), secrets)
    const retryable = !(error instanceof NotificationDeliveryError) || error.retryable
    const final = !retryable || delivery.attempts >= delivery.maxAttempts
    const retryAfter = error instanceof NotificationDeliveryError ? error.retryAfterMs : null
    const wait = outboxRetryDelay(delivery.attempts, handler.retry ?? this.options.retry, retryAfter)
    const recorded = await markAttemptFailed(delivery.id, this.id, reason, final ? null : Date.now() + wait)
    if (!recorded) return
    if (!final) {
      // Come back for our own retry without waiting for the next poll.
      setTimeout(() => this.kick(), wait + 5).unref()
      return
    }
    const failed = { ...delivery, status: 'failed' as const, lastError: reason }
    if (handler.failed) handler.failed(failed, reason)
    else {
      this.logger.error(
        { delivery: delivery.id, channel: delivery.channel, event: delivery.eventType, attempts: delivery.attempts, reason },
        `Notification "${delivery.eventType}" through ${delivery.channel} failed for good: ${reason}`
      )
    }
  }
}

/** The message of a failure and of its causes (the channel's reason is often inside). */
function reasonOf(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  while (current instanceof Error && parts.length < 4) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message)
    current = current.cause
  }
  return parts.length > 0 ? parts.join(': ') : String(error)
}
