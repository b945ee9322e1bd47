/**
 * Contracts of the notification-channel extension point (e-mail, webhooks,
 * chat...). Channels are contributed by plugins and picked by name.
 */

/** A message to deliver. Channels render what they understand and ignore the rest. */
export interface Notification {
  /** What happened, e.g. `share:created`, `reverse_share:used`, `auth:password_reset`. */
  type: string
  /** Addresses (e-mail addresses for mail; may be empty for broadcast channels). */
  to: string[]
  /** Short summary (mail subject, chat title). */
  subject: string
  /** Plain-text body. */
  text: string
  /** Optional HTML body. */
  html?: string
  /** Structured data for channels that send JSON (webhooks). */
  data?: Record<string, unknown>
}

/** A channel implementation. */
export interface NotificationChannelContract {
  /**
   * Delivers `notification`. Resolves once the channel accepted it; rejects
   * when delivery failed (the manager rethrows as `E_NOTIFICATION_SEND_FAILED`).
   */
  send(notification: Notification): Promise<void>
  /** Releases connections; called on shutdown. Must not throw when already closed. */
  close?(): Promise<void>
}

/** Builds a channel; called once, on the first `use(name)`. */
export type NotificationChannelFactory = () => NotificationChannelContract
