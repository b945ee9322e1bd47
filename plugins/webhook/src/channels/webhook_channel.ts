/**
 * The `webhook` notification channel: a notification becomes one webhook
 * event named after its `type` (`share:created` -> `share.created`) whose
 * `data` holds the notification's fields, POSTed to every configured URL.
 */
import type { Notification, NotificationChannelContract } from '#extensions/notifications/main'
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

/** See the module comment. */
export class WebhookChannel implements NotificationChannelContract {
  constructor(protected dispatcher: WebhookDispatcher) {}

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
