/**
 * The catalogue of notification events: what the core emits through
 * `NotificationRouter.emit`, with the payload of each (plain JSON data: ids,
 * names, URLs, sizes, ISO dates, the owner's user id; never a secret, a
 * password or a token) and who may route it.
 *
 * Audience (`NOTIFICATION_EVENT_AUDIENCE`):
 * - `owner`: about something a user owns (a share, a reverse share); the
 *   owner may route it to himself in My account, admins may route it
 *   instance-wide;
 * - `subject`: about a user's own account (sign-in from a new device, a
 *   password reset requested); that user may route it to himself;
 * - `instance`: for admins only (instance routes).
 *
 * No event has a route until an admin or a user saves one.
 */

export const NOTIFICATION_EVENTS = [
  'share.created',
  'share.completed',
  'share.downloaded',
  'share.expiring',
  'share.expired',
  'share.deleted',
  'reverse_share.used',
  'reverse_share.expiring',
  'user.invited',
  'auth.password_reset_requested',
  'auth.new_device_sign_in',
] as const

/** One event of the catalogue. */
export type NotificationEventId = (typeof NOTIFICATION_EVENTS)[number]

/** Who may route an event (see the module comment). */
export type NotificationAudience = 'owner' | 'subject' | 'instance'

/** The audience of every event. */
export const NOTIFICATION_EVENT_AUDIENCE: Readonly<
  Record<NotificationEventId, NotificationAudience>
> = {
  'share.created': 'owner',
  'share.completed': 'owner',
  'share.downloaded': 'owner',
  'share.expiring': 'owner',
  'share.expired': 'owner',
  'share.deleted': 'owner',
  'reverse_share.used': 'owner',
  'reverse_share.expiring': 'owner',
  'user.invited': 'instance',
  'auth.password_reset_requested': 'subject',
  'auth.new_device_sign_in': 'subject',
}

/** True when `value` names an event of the catalogue. */
export function isNotificationEvent(value: unknown): value is NotificationEventId {
  return typeof value === 'string' && (NOTIFICATION_EVENTS as readonly string[]).includes(value)
}

/** True when a user may route `event` to himself (audience `owner` or `subject`). */
export function isUserRoutable(event: NotificationEventId): boolean {
  return NOTIFICATION_EVENT_AUDIENCE[event] !== 'instance'
}

/** A share as events describe it. */
export interface NotificationShare {
  id: string
  /** The share's name, or null. */
  name: string | null
  /** The share's page: `<appUrl>/s/<id>`, or the path `/s/<id>` while the public address is not confirmed. */
  url: string
  /** ISO 8601, or null when it never expires. */
  expiresAt: string | null
  /** The owner's user id, or null for a share made by a visitor. */
  creatorId: string | null
  /** The reverse share it was uploaded through, or null. */
  reverseShareId?: string | null
  /** How many files (when known). */
  fileCount?: number
  /** Total size in bytes (when known). */
  size?: number
}

/** A reverse share as events describe it (never its token). */
export interface NotificationReverseShare {
  id: string
  /** The owner's user id. */
  creatorId: string
  /** Uses left, or null when unlimited. */
  remainingUses: number | null
  /** ISO 8601 expiry of the reverse share, or null. */
  expiresAt: string | null
}

/** A user as events describe it. */
export interface NotificationUser {
  id: string
  username: string
  email: string
}

/**
 * The payload of each event, and when the core emits it. Share events go
 * to the share's signed-in creator, or, for a visitor's upload through a
 * reverse share, to the reverse share's owner (`EmitOptions.userId`).
 */
export interface NotificationEventPayloads {
  /** A share was created (files may still be uploading); stored with the share. */
  'share.created': { share: NotificationShare }
  /** Its upload was completed, the first time only (reopening and completing again is not news). */
  'share.completed': { share: NotificationShare }
  /**
   * Someone other than the owner downloaded a file or the zip (HEAD, 304
   * and 416 send nothing and count nothing); at most one event per share
   * every 15 minutes, naming the first file. `file` is null for the zip.
   */
  'share.downloaded': {
    share: NotificationShare
    file: { id: string; name: string; size: number } | null
  }
  /** A completed share expires within 24 hours; once per expiry (a changed expiry is announced again). */
  'share.expiring': { share: NotificationShare }
  /** The clean-up job removed it after its expiry; stored with the removal. */
  'share.expired': { share: NotificationShare }
  /**
   * It was deleted: `by` the owner (or with his reverse share), an admin
   * (someone else's share), or the system (an upload abandoned for a day, a
   * reverse share used up at completion). Not for the shares of a deleted account.
   */
  'share.deleted': {
    share: NotificationShare
    by: 'owner' | 'admin' | 'system'
    /** Why, when not deleted through the API (`Unfinished share`...), else null: the `reason` webhook receivers always had. */
    reason?: string | null
  }
  /** A share made through the reverse share was completed (first completion); `remainingUses` after this one. */
  'reverse_share.used': { reverseShare: NotificationReverseShare; share: NotificationShare }
  /** A reverse share with a use left expires within 24 hours; once. */
  'reverse_share.expiring': { reverseShare: NotificationReverseShare }
  /** An admin created the user with an invitation mail (not with a password); `invitedBy`: the admin's user id. */
  'user.invited': { user: NotificationUser; invitedBy: string | null }
  /** A reset link was issued for the account (not for unknown addresses, nor without mail); never the link. */
  'auth.password_reset_requested': { user: NotificationUser }
  /**
   * A sign-in (password, TOTP step or social login) from a device the user
   * has not used: another browser or OS family, or another network (IPv4
   * /24, IPv6 /64); the first device ever is not new. `device`: the user
   * agent as sent (cut), `ip` the address seen.
   */
  'auth.new_device_sign_in': {
    user: NotificationUser
    device: string
    ip: string | null
    signedInAt: string
  }
}

/**
 * The user an event concerns, to whom his own routes apply: the owner of
 * the share or reverse share (`owner`), the user himself (`subject`), or
 * null (`instance`, or a share made by a visitor).
 */
export function notificationEventUserId<E extends NotificationEventId>(
  event: E,
  payload: NotificationEventPayloads[E]
): string | null {
  const data = payload as Record<string, any>
  switch (NOTIFICATION_EVENT_AUDIENCE[event]) {
    case 'owner':
      return (data.reverseShare?.creatorId ?? data.share?.creatorId ?? null) as string | null
    case 'subject':
      return (data.user?.id ?? null) as string | null
    default:
      return null
  }
}
