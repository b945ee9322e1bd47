/**
 * Contracts of the notification-channel extension point (e-mail, webhooks,
 * chat...). Channels are contributed by plugins and picked by name.
 *
 * Two ways in: `send(Notification)` for the mails the core addresses itself
 * (password reset, invitation, share recipients), and `deliver(message)`
 * for the events of the catalogue (events.ts) that an admin or a user routed
 * to the channel; the core's `NotificationRouter` stores one outbox row per
 * channel and target and the outbox calls `deliver`, retrying on failure.
 */
import type { NotificationEventId, NotificationEventPayloads } from './events.js'

/** Who a routed message is for. */
export interface NotificationRecipient {
  /** The user's id. */
  userId: string
  /** The user's e-mail address at the time of the event. */
  email: string
  /** The language the text was rendered in (BCP 47, e.g. `de-DE`). */
  locale: string
}

/** The texts of a routed message, rendered by the core. */
export interface RenderedNotification {
  /** One line (mail subject, push title). */
  subject: string
  /** Plain text. */
  text: string
  html?: string
}

/**
 * One event routed to one channel and target. A user route carries the
 * `recipient`; an instance route has none (the channel's own configured
 * destination: an address list, a webhook URL, a topic).
 */
export interface NotificationMessage<E extends NotificationEventId = NotificationEventId> {
  event: E
  payload: NotificationEventPayloads[E]
  /** ISO 8601. */
  occurredAt: string
  /** UUID of the event: the same for every channel and target, and for every attempt (idempotency key). */
  eventId: string
  recipient?: NotificationRecipient
  /** Rendered in the recipient's locale, or the instance default for instance routes. */
  rendered: RenderedNotification
}

/** Which destinations a channel can reach. */
export interface NotificationChannelTargets {
  /** One user (e.g. mail to the user's address): the channel may appear in My account. */
  user: boolean
  /** A destination the admin configured (a webhook URL, an ntfy topic, an address list). */
  instance: boolean
}

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
   * Delivers `notification` (a mail the core addresses itself). Resolves once
   * the channel accepted it; rejects when delivery failed (the manager
   * rethrows as `E_NOTIFICATION_SEND_FAILED`). Optional for channels that
   * only deliver routed events (the manager's `send` then rejects).
   */
  send?(notification: Notification): Promise<void>
  /**
   * The events the channel can deliver (omitted: all). Routes to other
   * events are refused with 400.
   */
  events?: readonly NotificationEventId[]
  /** Which destinations it reaches. A channel without `targets` and `deliver` cannot be routed. */
  targets?: NotificationChannelTargets
  /**
   * Delivers one routed event (called by the outbox worker, never during a
   * request). Resolves once the receiver accepted it; rejects to fail the
   * attempt, preferably with `NotificationDeliveryError` (`retryable: false`
   * for a refusal that will not change, e.g. a 4xx); any other error is
   * retried. The same `message.eventId` may come twice (a retry after a
   * lost answer): pass it on as an idempotency key where the receiver can.
   */
  deliver?(message: NotificationMessage): Promise<void>
  /**
   * Whether the channel can deliver at all now, by its own settings (e-mail:
   * SMTP is on). Omitted: always. Users are offered only the channels that
   * can (a route to one that cannot would only collect failed deliveries);
   * admins are offered every channel, to route ahead of switching it on.
   * Should not throw (a rejection counts as "cannot").
   */
  available?(): Promise<boolean>
  /** Releases connections; called on shutdown. Must not throw when already closed. */
  close?(): Promise<void>
}

/** What the manager's `use(name)` returns: every call wrapped with a coded error. */
export interface NotificationChannel {
  send(notification: Notification): Promise<void>
  deliver(message: NotificationMessage): Promise<void>
  close(): Promise<void>
}

/** A routable channel as the routes API lists it. */
export interface NotificationChannelInfo {
  name: string
  /** The events it can deliver (the whole catalogue when the channel did not restrict them). */
  events: readonly NotificationEventId[]
  targets: NotificationChannelTargets
}

/** Builds a channel; called once, on the first `use(name)`. */
export type NotificationChannelFactory = () => NotificationChannelContract
