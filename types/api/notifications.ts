/**
 * The notification outbox objects of the admin API
 * (`/api/notifications/deliveries`), shared by the server
 * (app/transformers/delivery_transformer.ts) and the admin panel
 * (`#api/notifications`). Plain types only.
 */

/** Where a delivery stands. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/**
 * A delivery as admins see it: never the payload (it may hold a reset link
 * or a mail body), event ids and targets redacted (URLs without their query
 * string). Times are ISO 8601.
 */
export interface Delivery {
  id: string
  eventId: string
  eventType: string
  channel: string
  target: string
  status: DeliveryStatus
  attempts: number
  maxAttempts: number
  lastError: string | null
  createdAt: string
  updatedAt: string
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: string | null
  deliveredAt: string | null
}

/** Events of the notification catalogue (app/extensions/notifications/events.ts). */
export type NotificationEventName =
  | 'share.created'
  | 'share.completed'
  | 'share.downloaded'
  | 'share.expiring'
  | 'share.expired'
  | 'share.deleted'
  | 'reverse_share.used'
  | 'reverse_share.expiring'
  | 'user.invited'
  | 'auth.password_reset_requested'
  | 'auth.new_device_sign_in'

/**
 * Who may route an event: `owner` (the owner of the share or reverse share
 * may route it to himself), `subject` (the user the event is about may),
 * `instance` (admins only).
 */
export type NotificationEventAudience = 'owner' | 'subject' | 'instance'

/** An event that can be routed. */
export interface NotificationEventOption {
  id: NotificationEventName
  audience: NotificationEventAudience
}

/** A channel that can be routed: the events it can deliver and the targets it reaches. */
export interface NotificationChannelOption {
  name: string
  events: NotificationEventName[]
  targets: { user: boolean; instance: boolean }
}

/** One route: `event` goes to `channel`. */
export interface NotificationRouteItem {
  event: NotificationEventName
  channel: string
}

/**
 * `GET`/`PUT /api/notifications/routes` (admin: the instance routes) and
 * `GET`/`PUT /api/user/notifications` (the caller's own routes: only the
 * events about him and the channels that reach one user).
 */
export interface NotificationRouting {
  events: NotificationEventOption[]
  channels: NotificationChannelOption[]
  routes: NotificationRouteItem[]
}

/** Body of the two `PUT`s: replaces every route of the scope. */
export interface NotificationRoutesUpdate {
  routes: { event: string; channel: string }[]
}
