/**
 * The delivery queue. `dispatch` (used by the hook listeners) returns at
 * once and does everything later: read the settings, pick the URLs, POST to
 * each with retries. Nothing it does can fail or slow the request that
 * caused the event; every failure is logged with its reason. `idle()` waits
 * for the work started so far, `close()` cancels sleeping retries and aborts
 * requests in flight (shutdown).
 */
import { randomUUID } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from './backoff.js'
import { attemptDelivery, serializeWebhookBody, webhookHeaders } from './delivery.js'
import { E_WEBHOOK_DISABLED, E_WEBHOOK_NOT_CONFIGURED } from './errors.js'
import { eventAllowed, webhookEventName } from './events.js'
import { checkWebhookUrl, type WebhookSettings, type WebhookSettingsSource } from './settings.js'

/** The logger surface the dispatcher needs (pino style: bindings first). */
export interface WebhookLogger {
  info(bindings: Record<string, unknown>, message: string): void
  warn(bindings: Record<string, unknown>, message: string): void
  error(bindings: Record<string, unknown>, message: string): void
}

/** What the dispatcher needs. */
export interface WebhookDispatcherOptions {
  /** Reads the current settings (called once per event). */
  settings: WebhookSettingsSource
  logger: WebhookLogger
  /** The `User-Agent` header (`Tern-Webhook/<plugin version>`). */
  userAgent: string
  /** Waits between attempts (default `DEFAULT_RETRY_POLICY`). */
  retry?: Partial<RetryPolicy>
}

/** One event going to one URL. */
interface Delivery {
  url: string
  event: string
  id: string
  body: string
  settings: WebhookSettings
}

/** See the module comment. */
export class WebhookDispatcher {
  #pending = new Set<Promise<void>>()
  #sleepers = new Set<() => void>()
  #shutdown = new AbortController()
  #retry: RetryPolicy

  constructor(protected options: WebhookDispatcherOptions) {
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  }

  /** The waits between attempts. */
  get retryPolicy(): RetryPolicy {
    return { ...this.#retry }
  }

  /** True once `close()` was called: new events are dropped. */
  get closed(): boolean {
    return this.#shutdown.signal.aborted
  }

  /**
   * Queues `type` (a hook name like `share:created`, or its webhook name)
   * with `data` and returns at once. Later: nothing while webhooks are off
   * or the event is filtered out; otherwise one delivery per valid URL.
   * Never throws; the returned promise (for tests) settles when the
   * deliveries of this event are queued.
   */
  dispatch(type: string, data: Record<string, unknown>): Promise<void> {
    const occurredAt = new Date().toISOString()
    return this.#track(
      (async () => {
        await nextTurn()
        try {
          await this.send(type, data, occurredAt)
        } catch (error) {
          if (error instanceof E_WEBHOOK_DISABLED) return
          this.options.logger.error(
            { event: webhookEventName(type), reason: reasonOf(error) },
            `Webhook "${webhookEventName(type)}" not sent: ${reasonOf(error)}`
          )
        }
      })()
    )
  }

  /**
   * Reads the settings now and queues one delivery of `type` per valid URL
   * (invalid URLs are logged and skipped); resolves once they are queued,
   * not delivered. An event the `webhook.events` filter excludes resolves
   * without sending. Throws `E_WEBHOOK_DISABLED` while webhooks are off and
   * `E_WEBHOOK_NOT_CONFIGURED` when no URL is usable.
   */
  async send(type: string, data: Record<string, unknown>, occurredAt = new Date().toISOString()): Promise<void> {
    const event = webhookEventName(type)
    if (this.closed) throw new Error('the webhook dispatcher is closed (application shutting down)')
    const settings = await this.options.settings()
    if (!settings.enabled) throw new E_WEBHOOK_DISABLED()
    if (!eventAllowed(settings.events, event)) return
    const urls = this.#usableUrls(settings.urls, event)
    if (urls.length === 0) throw new E_WEBHOOK_NOT_CONFIGURED()
    for (const url of urls) {
      const id = randomUUID()
      const body = serializeWebhookBody({ event, id, occurredAt, data })
      this.#track(
        this.#deliver({ url, event, id, body, settings }).catch((error) => {
          const reason = reasonOf(error)
          this.options.logger.error({ event, delivery: id, url, reason }, `Webhook "${event}" to ${url} failed: ${reason}`)
        })
      )
    }
  }

  /** Resolves once every dispatch and delivery started so far has settled (retries included). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
  }

  /**
   * Stops: drops new events, cancels the waits before retries, aborts the
   * requests in flight (each logged as cancelled), and resolves once all
   * work settled. Safe to call twice.
   */
  async close(): Promise<void> {
    this.#shutdown.abort()
    for (const wake of [...this.#sleepers]) wake()
    await this.idle()
  }

  #usableUrls(urls: string[], event: string): string[] {
    return urls.filter((url) => {
      const problem = checkWebhookUrl(url)
      if (problem) {
        this.options.logger.warn({ event, url, reason: problem }, `Webhook URL skipped (${problem}): ${url}`)
      }
      return !problem
    })
  }

  /** Attempts one delivery until it succeeds, fails for good, runs out of attempts or the dispatcher closes. */
  async #deliver(delivery: Delivery): Promise<void> {
    const { url, event, id, settings } = delivery
    const logger = this.options.logger
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptDelivery(url, delivery.body, {
        headers: webhookHeaders({
          event,
          deliveryId: id,
          body: delivery.body,
          secret: settings.secret,
          userAgent: this.options.userAgent,
          attempt,
        }),
        timeoutMs: settings.timeoutMs,
        signal: this.#shutdown.signal,
      })
      const context = { event, delivery: id, url, attempt, status: outcome.status }
      if (outcome.ok) {
        logger.info(context, `Webhook "${event}" delivered to ${url}`)
        return
      }

      const failure = { ...context, maxAttempts: settings.maxAttempts, reason: outcome.reason }
      const prefix = `Webhook "${event}" to ${url}`
      if (!outcome.retryable || this.closed) {
        logger.error(failure, `${prefix} failed, not retried: ${outcome.reason}`)
        return
      }
      if (attempt >= settings.maxAttempts) {
        logger.error(failure, `${prefix} failed, gave up after ${attempt} attempt(s): ${outcome.reason}`)
        return
      }
      const wait = retryDelay(attempt, this.#retry, outcome.retryAfterMs)
      logger.warn(
        { ...failure, retryInMs: wait },
        `${prefix} failed (attempt ${attempt}/${settings.maxAttempts}), retrying in ${wait} ms: ${outcome.reason}`
      )
      if (!(await this.#sleep(wait))) {
        logger.error(failure, `${prefix} abandoned: the application is shutting down`)
        return
      }
    }
  }

  /** Waits `ms`; resolves false when `close()` interrupted the wait. */
  #sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false)
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.#sleepers.delete(wake)
        resolve(!this.closed)
      }
      const timer = setTimeout(wake, ms)
      this.#sleepers.add(wake)
    })
  }

  #track(work: Promise<void>): Promise<void> {
    const tracked = work.finally(() => this.#pending.delete(tracked))
    this.#pending.add(tracked)
    return tracked
  }
}

/** A failure's message for the log. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
