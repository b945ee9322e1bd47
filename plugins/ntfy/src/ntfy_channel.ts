/**
 * The `ntfy` notification channel: every event of the catalogue an admin
 * routes to it is published to the configured topic (instance target only:
 * a topic is one destination the admin chose, and ntfy has no per-user
 * address Tern could know). The title and body are the texts the core
 * rendered; the tags name the event; tapping the notification opens the
 * share (or reverse share) page when the event has one.
 */
import {
  NOTIFICATION_EVENTS,
  NotificationDeliveryError,
  type Notification,
  type NotificationChannelContract,
  type NotificationEventId,
  type NotificationMessage,
} from '#extensions/notifications/main'
import { E_NTFY_NOT_CONFIGURED } from './errors.js'
import { publish, type NtfyMessage } from './publish.js'
import type { NtfySettings, NtfySettingsSource } from './settings.js'

/** The name the channel is registered under (and routes name). */
export const NTFY_CHANNEL_NAME = 'ntfy'

/** The emoji tag of each event (ntfy shows known short codes as emojis before the title). */
export const EVENT_TAGS: Readonly<Record<NotificationEventId, string>> = {
  'share.created': 'package',
  'share.completed': 'white_check_mark',
  'share.downloaded': 'inbox_tray',
  'share.expiring': 'hourglass_flowing_sand',
  'share.expired': 'hourglass',
  'share.deleted': 'wastebasket',
  'reverse_share.used': 'outbox_tray',
  'reverse_share.expiring': 'hourglass_flowing_sand',
  'user.invited': 'wave',
  'auth.password_reset_requested': 'key',
  'auth.new_device_sign_in': 'warning',
}

/** The page a notification opens: the share's, else none (reverse shares have no page of their own). */
export function clickTarget(payload: unknown): string | null {
  const share = (payload as { share?: { url?: unknown } } | null)?.share
  return typeof share?.url === 'string' ? share.url : null
}

/** What `publish` gets for a routed message. */
export function ntfyMessageOf(message: NotificationMessage): NtfyMessage {
  return {
    title: message.rendered.subject,
    body: message.rendered.text,
    tags: [EVENT_TAGS[message.event], message.event].filter(Boolean),
    click: clickTarget(message.payload),
    eventId: message.eventId,
  }
}

/** Options of the channel. */
export interface NtfyChannelOptions {
  /** Read at each attempt: an admin change applies to the next one. */
  settings: NtfySettingsSource
  /** `User-Agent` of the requests (`Tern-ntfy/<plugin version>`). */
  userAgent: string
  /** Limit of one request (default 10 s). */
  timeoutMs?: number
}

/** See the module comment. */
export class NtfyChannel implements NotificationChannelContract {
  /** Every event of the catalogue. */
  readonly events: readonly NotificationEventId[] = NOTIFICATION_EVENTS
  readonly targets = { user: false, instance: true }
  #closing = new AbortController()

  constructor(protected options: NtfyChannelOptions) {}

  /**
   * Publishes one routed event. Rejects with `NotificationDeliveryError`:
   * retryable for network errors, timeouts, 429 and 5xx, final for other
   * answers and while no topic is configured. ntfy has no idempotency key: a
   * retry after a lost answer may show the message twice (the request carries
   * `X-Tern-Event-Id`, the same on every attempt, for a proxy that dedupes).
   */
  async deliver(message: NotificationMessage): Promise<void> {
    await this.#publish(ntfyMessageOf(message))
  }

  /** Publishes a notification the core addresses itself (`to` is ignored: the topic is the destination). */
  async send(notification: Notification): Promise<void> {
    await this.#publish({ title: notification.subject, body: notification.text, tags: [] })
  }

  /** Aborts requests in flight (their outbox rows are retried later). Safe to call twice. */
  async close(): Promise<void> {
    this.#closing.abort()
  }

  async #publish(message: NtfyMessage): Promise<void> {
    if (this.#closing.signal.aborted) {
      throw new NotificationDeliveryError(
        'ntfy: the channel is closed (application shutting down)',
        { retryable: true }
      )
    }
    const settings: NtfySettings = await this.options.settings()
    if (!settings.topic || !settings.server) {
      throw new NotificationDeliveryError(new E_NTFY_NOT_CONFIGURED().message, {
        retryable: false,
        cause: new E_NTFY_NOT_CONFIGURED(),
      })
    }
    await publish(settings, message, {
      userAgent: this.options.userAgent,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      signal: this.#closing.signal,
    })
  }
}
