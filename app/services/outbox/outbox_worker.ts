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
 *
 * A claim lasts `leaseMs` (short: a killed instance's claims are free again
 * soon) and is renewed every third of it while the attempt runs, so a slow
 * attempt keeps its row however long it takes, up to `attemptTimeoutMs`.
 * When a renewal finds the claim gone (another instance took the row after
 * the lease ran out) or the lease ends without one (database away), the
 * attempt is aborted; its outcome is recorded only while no other worker
 * holds the row (every write names the claim's token, outbox_store.ts).
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { NotificationDeliveryError } from '#extensions/notifications/delivery_error'
import { faultPoint } from '#services/files/fault_points'
import type { OutboxHandler } from '#extensions/outbox/main'
import { outboxRetryDelay, type OutboxRetryPolicy } from '#services/outbox/backoff'
import {
  claimDue,
  markAttemptFailed,
  markDelivered,
  purgeDelivered,
  renewClaim,
  type Claim,
  type OutboxDelivery,
} from '#services/outbox/outbox_store'
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
  /** How long a claim lasts unless renewed (renewed every third of it while the attempt runs). */
  leaseMs: number
  /** Longest attempt: aborted then; its claim is no longer renewed. */
  attemptTimeoutMs: number
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
  /** The deliveries of the attempts in flight: never claimed again while one runs here. */
  #busy = new Set<string>()

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
      const room = Math.min(
        this.options.batchSize,
        (this.options.maxInFlight ?? 32) - this.#inFlight.size
      )
      // Full: the first attempt to end kicks the next pass.
      if (room <= 0) return
      const claimed = await claimDue(
        [...this.handlers.keys()],
        this.id,
        this.options.leaseMs,
        room,
        [...this.#busy]
      )
      if (this.#failing) this.logger.warn({}, 'Notification outbox: polling works again')
      this.#failing = false
      for (const claim of claimed) this.#track(claim)
      if (claimed.length < room || this.#stopped) return
    }
  }

  /** Runs an attempt beside the others; its end makes room, so it kicks a pass when the worker was full. */
  #track(claim: Claim): void {
    const full = () => this.#inFlight.size >= (this.options.maxInFlight ?? 32)
    this.#busy.add(claim.delivery.id)
    const attempt: Promise<void> = this.#attempt(claim)
      .catch((error) => {
        // Recording the outcome failed (database down): the lease expires and the row is claimed again.
        this.logger.error(
          { err: error, delivery: claim.delivery.id },
          'Notification outbox: recording an attempt failed'
        )
      })
      .finally(() => {
        const wasFull = full()
        this.#busy.delete(claim.delivery.id)
        this.#inFlight.delete(attempt)
        if (wasFull) this.kick()
      })
    this.#inFlight.add(attempt)
  }

  async #attempt({ delivery, token }: Claim): Promise<void> {
    const handler = this.handlers.get(delivery.channel)
    if (!handler) return
    const claim = this.#hold(delivery, token)
    let outcome: { error: unknown } | undefined
    try {
      await faultPoint('outbox-claimed', `${delivery.channel}:${delivery.target}`)
      await handler.deliver(delivery, AbortSignal.any([this.#shutdown.signal, claim.signal]))
    } catch (error) {
      outcome = { error }
    } finally {
      // The outcome is recorded right away, within the lease the last renewal gave.
      claim.release()
    }
    if (!outcome) await markDelivered(delivery.id, token)
    else await this.#failed(delivery, token, handler, outcome.error)
  }

  /**
   * Keeps the claim `token` of `delivery` alive while its attempt runs (see
   * the module comment). The signal aborts when the attempt must end: its time
   * is up, or the claim is lost. `release()` stops the renewals.
   */
  #hold(delivery: OutboxDelivery, token: string): { signal: AbortSignal; release: () => void } {
    const { leaseMs } = this.options
    const limit = AbortSignal.timeout(this.options.attemptTimeoutMs)
    const lost = new AbortController()
    // The claim's lease as this worker knows it: from the claim, then from each renewal it asked for.
    let leaseEnd = delivery.updatedAt + leaseMs
    let renewing = false
    let released = false
    const give = (reason: string) => {
      clearInterval(timer)
      if (released || lost.signal.aborted) return
      this.logger.warn(
        { delivery: delivery.id, channel: delivery.channel },
        `Notification outbox: attempt aborted, ${reason}`
      )
      lost.abort(new Error(`the outbox claim was lost (${reason})`))
    }
    const timer = setInterval(
      async () => {
        if (limit.aborted) return clearInterval(timer)
        // Checked even while a renewal hangs: past this point another instance may take the row.
        if (Date.now() >= leaseEnd) return give('its lease ran out before it could be renewed')
        if (renewing) return
        renewing = true
        const asked = Date.now()
        try {
          if (await renewClaim(delivery.id, token, leaseMs)) leaseEnd = asked + leaseMs
          else give('its claim is gone (another worker took the delivery over)')
        } catch {
          // The database is away: the next beat tries again, until the lease ends.
        } finally {
          renewing = false
        }
      },
      Math.max(50, Math.floor(leaseMs / 3))
    )
    timer.unref()
    const release = () => {
      released = true
      clearInterval(timer)
    }
    return { signal: AbortSignal.any([limit, lost.signal]), release }
  }

  async #failed(
    delivery: OutboxDelivery,
    token: string,
    handler: OutboxHandler,
    error: unknown
  ): Promise<void> {
    const secrets = (await handler.secrets?.().catch(() => [])) ?? []
    const reason = redactDeliveryError(reasonOf(error), secrets)
    const retryable = !(error instanceof NotificationDeliveryError) || error.retryable
    const final = !retryable || delivery.attempts >= delivery.maxAttempts
    const retryAfter = error instanceof NotificationDeliveryError ? error.retryAfterMs : null
    const wait = outboxRetryDelay(
      delivery.attempts,
      handler.retry ?? this.options.retry,
      retryAfter
    )
    const recorded = await markAttemptFailed(
      delivery.id,
      token,
      reason,
      final ? null : Date.now() + wait
    )
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
        {
          delivery: delivery.id,
          channel: delivery.channel,
          event: delivery.eventType,
          attempts: delivery.attempts,
          reason,
        },
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
