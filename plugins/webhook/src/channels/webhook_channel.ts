/**
 * The `webhook` notification channel. An event of the catalogue an admin
 * routes to it (instance target: the configured URLs) becomes one signed
 * JSON POST per URL: `deliver` (run by the outbox for the routed row) stores
 * one outbox row per URL, delivered and retried one by one, so a receiver
 * that fails never makes another receive twice. A notification the core
 * sends itself (`send`) becomes an event named after its `type`.
 */
import {
  NotificationDeliveryError,
  type Notification,
  type NotificationChannelContract,
  type NotificationEventId,
  type NotificationMessage,
} from '#extensions/notifications/main'
import { E_WEBHOOK_DISABLED, E_WEBHOOK_NOT_CONFIGURED } from '../errors.js'
import { WEBHOOK_EVENTS } from '../events.js'
import type { WebhookDispatcher } from '../webhook_dispatcher.js'

/** The name the channel is registered under. */
export const WEBHOOK_CHANNEL_NAME = 'webhook'

/** The `data` of a webhook made from `notification`. */
export function notificationData(notification: Notification): Record<string, unknown> {
  return {
    to: notification.to,
    subject: notification.subject,
    text: notification.text,
    ...(notification.html === undefined ? {} : { html: notification.html }),
    ...(notification.data === undefined ? {} : { data: notification.data }),
  }
}

type Payload = Record<string, any>

/**
 * The keys the plugin's hook listeners sent before routing existed, per
 * event (so receivers written for them keep working): they come first in
 * `data`, followed by the catalogue payload.
 */
const LEGACY_DATA: Partial<
  Record<NotificationEventId, (payload: Payload) => Record<string, unknown>>
> = {
  'share.created': ({ share }) => ({ shareId: share?.id, creatorId: share?.creatorId ?? null }),
  'share.completed': ({ share }) => ({
    shareId: share?.id,
    creatorId: share?.creatorId ?? null,
    fileCount: share?.fileCount ?? null,
    size: share?.size ?? null,
  }),
  'share.downloaded': ({ share, file }) => ({ shareId: share?.id, fileId: file?.id ?? null }),
  'share.expired': ({ share }) => ({ shareId: share?.id }),
  'share.deleted': (payload) => ({ shareId: payload.share?.id, reason: payload.reason ?? null }),
  'reverse_share.used': ({ reverseShare, share }) => ({
    reverseShareId: reverseShare?.id,
    shareId: share?.id,
  }),
}

/**
 * The `data` of a routed event: the keys the lifecycle webhooks always had
 * (`shareId`, `creatorId`...) for the six events they covered, then the
 * catalogue payload (`share`, `file`, `reverseShare`, `user`...).
 */
export function routedData(
  message: Pick<NotificationMessage, 'event' | 'payload'>
): Record<string, unknown> {
  const payload = (message.payload ?? {}) as Payload
  return { ...LEGACY_DATA[message.event]?.(payload), ...payload }
}

/** See the module comment. */
export class WebhookChannel implements NotificationChannelContract {
  /** Every event of the catalogue. */
  readonly events: readonly NotificationEventId[] = WEBHOOK_EVENTS
  /** The admin-configured URLs; there is no per-user webhook. */
  readonly targets = { user: false, instance: true }

  constructor(protected dispatcher: WebhookDispatcher) {}

  /**
   * Fans a routed event out: resolves once one delivery per valid URL is
   * stored (kept once per event and URL, so a retry of this step stores
   * nothing twice), at once while `webhook.enabled` is off (the event is
   * dropped, as before routing) or when `webhook.events` excludes it.
   * Rejects with a final `NotificationDeliveryError` when no URL is usable
   * (the admin sees it among the failed deliveries), a retryable one when
   * the rows could not be stored or the application is shutting down.
   */
  async deliver(message: NotificationMessage): Promise<void> {
    try {
      const { subject, text } = message.rendered
      await this.dispatcher.send(
        message.event,
        routedData(message),
        message.occurredAt,
        message.eventId,
        { subject, text }
      )
    } catch (error) {
      if (error instanceof E_WEBHOOK_DISABLED) return
      // No usable URL stays so until an admin fixes the settings; anything else (the database) may pass.
      const reason = error instanceof Error ? error.message : String(error)
      throw new NotificationDeliveryError(reason, {
        retryable: !(error instanceof E_WEBHOOK_NOT_CONFIGURED),
        cause: error,
      })
    }
  }

  /**
   * Accepts `notification` for delivery: resolves once one delivery per
   * valid URL is stored in the notification outbox (delivery, retries and
   * their failures happen later, on any instance, and are logged), or at
   * once when `webhook.events` excludes the type. Rejects with
   * `E_WEBHOOK_DISABLED` while webhooks are off and `E_WEBHOOK_NOT_CONFIGURED`
   * when no URL is usable. `notification.to` is not used for routing: the
   * recipients are the configured URLs.
   */
  async send(notification: Notification): Promise<void> {
    await this.dispatcher.send(notification.type, notificationData(notification))
  }

  /** Nothing to release here: the plugin provider closes the dispatcher on shutdown. */
  async close(): Promise<void> {}
}
