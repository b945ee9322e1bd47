/**
 * Webhook deliveries through the core's durable notification outbox
 * (`#extensions/outbox/main`). `send` (called by the channel's `deliver`,
 * itself run by the outbox for a routed event) stores one outbox row per
 * valid URL, kept once per event and URL; the outbox worker of whichever
 * instance claims a row calls back `deliver` for one attempt, and retries
 * failures with back-off until `webhook.maxAttempts` (then the row is listed
 * as failed for admins). The secret and timeout are read at each attempt;
 * the URLs and attempt limit when the event is fanned out. `idle()` waits
 * until no delivery of this dispatcher's channel is pending, `close()`
 * aborts requests in flight (they are retried later, by any instance).
 */
import { randomUUID } from 'node:crypto'
import { NotificationDeliveryError } from '#extensions/notifications/main'
import {
  notificationOutbox,
  type NotificationOutboxSource,
  type OutboxDelivery,
} from '#extensions/outbox/main'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './backoff.js'
import { attemptDelivery, serializeWebhookBody, webhookHeaders } from './delivery.js'
import { E_WEBHOOK_DISABLED, E_WEBHOOK_NOT_CONFIGURED } from './errors.js'
import { eventAllowed, webhookEventName } from './events.js'
import { checkWebhookUrl, type WebhookSettingsSource } from './settings.js'

/** The logger surface the dispatcher needs (pino style: bindings first). */
export interface WebhookLogger {
  info(bindings: Record<string, unknown>, message: string): void
  warn(bindings: Record<string, unknown>, message: string): void
  error(bindings: Record<string, unknown>, message: string): void
}

/** What the dispatcher needs. */
export interface WebhookDispatcherOptions {
  /** Reads the current settings (once per event, and at each attempt for the secret and timeout). */
  settings: WebhookSettingsSource
  logger: WebhookLogger
  /** The `User-Agent` header (`Tern-Webhook/<plugin version>`). */
  userAgent: string
  /** Waits between attempts (default `DEFAULT_RETRY_POLICY`; jittered by the outbox). */
  retry?: Partial<RetryPolicy>
  /** The outbox channel of the rows (default `webhook`; tests use their own). */
  channel?: string
  /** The outbox (default the core's, `notificationOutbox`). */
  outbox?: NotificationOutboxSource
}

/** What an outbox row of a webhook holds. */
interface WebhookPayload {
  /** The receiving URL (the row's `target` is cut to 512 characters for display). */
  url?: string
  event: string
  occurredAt: string
  data: Record<string, unknown>
  rendered?: { subject: string; text: string }
}

/** See the module comment. */
export class WebhookDispatcher {
  #shutdown = new AbortController()
  #retry: RetryPolicy
  #outbox: NotificationOutboxSource
  #unregister: () => void
  readonly channel: string

  constructor(protected options: WebhookDispatcherOptions) {
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.#outbox = options.outbox ?? notificationOutbox
    this.channel = options.channel ?? 'webhook'
    this.#unregister = this.#outbox.handle(this.channel, {
      deliver: (delivery, signal) => this.deliver(delivery, signal),
      retry: this.#retry,
      secrets: async () => {
        const settings = await this.options.settings()
        return [settings.secret].filter(Boolean)
      },
    })
  }

  /** The waits between attempts. */
  get retryPolicy(): RetryPolicy {
    return { ...this.#retry }
  }

  /** True once `close()` was called: new events are refused. */
  get closed(): boolean {
    return this.#shutdown.signal.aborted
  }

  /** Reads the current settings. */
  settings() {
    return this.options.settings()
  }

  /**
   * Reads the settings now and stores one delivery of `type` (a catalogue
   * event like `share.created`; `share:created` is read the same) per valid
   * URL (invalid URLs are logged and skipped); resolves once they are
   * stored, not delivered. An event the `webhook.events` filter excludes
   * resolves without sending. Throws `E_WEBHOOK_DISABLED` while webhooks are
   * off and `E_WEBHOOK_NOT_CONFIGURED` when no URL is usable. `eventId` (the
   * routed event's) makes a repeated call for the same event a no-op.
   */
  async send(
    type: string,
    data: Record<string, unknown>,
    occurredAt = new Date().toISOString(),
    eventId: string = randomUUID(),
    rendered?: { subject: string; text: string }
  ): Promise<void> {
    const event = webhookEventName(type)
    if (this.closed) throw new Error('the webhook dispatcher is closed (application shutting down)')
    const settings = await this.options.settings()
    if (!settings.enabled) throw new E_WEBHOOK_DISABLED()
    if (!eventAllowed(settings.events, event)) return
    const urls = this.#usableUrls(settings.urls, event)
    if (urls.length === 0) throw new E_WEBHOOK_NOT_CONFIGURED()
    for (const url of urls) {
      await this.#outbox.enqueue({
        eventId,
        eventType: event,
        channel: this.channel,
        target: url,
        payload: {
          url,
          event,
          occurredAt,
          data,
          ...(rendered ? { rendered } : {}),
        } satisfies WebhookPayload,
        maxAttempts: settings.maxAttempts,
      })
    }
  }

  /**
   * One attempt of a stored delivery (called by the outbox worker). The row
   * id is the delivery id (`X-Tern-Delivery`), the same on every attempt.
   * Throws `NotificationDeliveryError` (retryable or not) when it failed.
   */
  async deliver(delivery: OutboxDelivery, signal?: AbortSignal): Promise<void> {
    const {
      event,
      occurredAt,
      data,
      rendered,
      url = delivery.target,
    } = delivery.payload as WebhookPayload
    const settings = await this.options.settings()
    const body = serializeWebhookBody({ event, id: delivery.id, occurredAt, data, rendered })
    const attempt = delivery.attempts
    const outcome = await attemptDelivery(url, body, {
      headers: webhookHeaders({
        event,
        deliveryId: delivery.id,
        body,
        secret: settings.secret,
        userAgent: this.options.userAgent,
        attempt,
      }),
      timeoutMs: settings.timeoutMs,
      signal: signal ? AbortSignal.any([signal, this.#shutdown.signal]) : this.#shutdown.signal,
    })
    const context = { event, delivery: delivery.id, url, attempt, status: outcome.status }
    const logger = this.options.logger
    if (outcome.ok) {
      logger.info(context, `Webhook "${event}" delivered to ${url}`)
      return
    }
    const failure = { ...context, maxAttempts: delivery.maxAttempts, reason: outcome.reason }
    const prefix = `Webhook "${event}" to ${url}`
    const cancelled = this.closed || Boolean(signal?.aborted)
    if (cancelled) {
      const why = this.closed
        ? 'shutting down'
        : 'the outbox ended the attempt: time limit, or its claim was lost'
      logger.warn(failure, `${prefix} interrupted (${why}); it stays queued: ${outcome.reason}`)
    } else if (!outcome.retryable) {
      logger.error(failure, `${prefix} failed, not retried: ${outcome.reason}`)
    } else if (attempt >= delivery.maxAttempts) {
      logger.error(
        failure,
        `${prefix} failed, gave up after ${attempt} attempt(s): ${outcome.reason}`
      )
    } else {
      logger.warn(
        failure,
        `${prefix} failed (attempt ${attempt}/${delivery.maxAttempts}), retrying: ${outcome.reason}`
      )
    }
    throw new NotificationDeliveryError(outcome.reason, {
      retryable: outcome.retryable || cancelled,
      retryAfterMs: outcome.retryAfterMs,
    })
  }

  /** Resolves once no delivery of this dispatcher's channel is pending (routed events included). */
  async idle(timeoutMs?: number): Promise<void> {
    await this.#outbox.idle(this.channel, timeoutMs)
  }

  /**
   * Stops: refuses new events, aborts the requests in flight (their rows stay
   * pending for any instance) and stops handling this channel here. Safe to
   * call twice.
   */
  async close(): Promise<void> {
    this.#shutdown.abort()
    this.#unregister()
  }

  #usableUrls(urls: string[], event: string): string[] {
    return urls.filter((url) => {
      const problem = checkWebhookUrl(url)
      if (problem) {
        this.options.logger.warn(
          { event, url, reason: problem },
          `Webhook URL skipped (${problem}): ${url}`
        )
      }
      return !problem
    })
  }
}
