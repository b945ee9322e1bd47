/**
 * The payloads of the notification events (#extensions/notifications/events)
 * built from the models, so every place that emits describes a share, a
 * reverse share or a user the same way: plain JSON (ids, names, the share's
 * page URL, sizes, ISO dates, the owner's id), never a password, a token or
 * a reverse share's upload link.
 */
import ReverseShare from '#models/reverse_share'
import type Share from '#models/share'
import type User from '#models/user'
import { linkForOthers } from '#services/links/link_base'
import type {
  NotificationReverseShare,
  NotificationShare,
  NotificationUser,
} from '#extensions/notifications/events'

/** What a share event may add: the file count and total size, once known. */
export interface ShareTotals {
  fileCount?: number
  size?: number
}

/** The fields of a share an event names (a model, or the row about to be stored). */
export type ShareFields = Pick<Share, 'id' | 'name' | 'expiration' | 'creatorId' | 'reverseShareId'>

/**
 * `share` as events describe it: its URL is `<appUrl>/s/<id>` once the public
 * address is confirmed, the path `/s/<id>` until then (events reach people
 * other than the requester, so the request's Host never chooses it:
 * `#services/links/link_base`). It reads the settings: build it before
 * opening the transaction you emit in (SQLite has one connection, which the
 * transaction holds).
 */
export async function notificationShare(
  share: ShareFields,
  totals: ShareTotals = {}
): Promise<NotificationShare> {
  return {
    id: share.id,
    name: share.name ?? null,
    url: await linkForOthers(`/s/${encodeURIComponent(share.id)}`),
    expiresAt: share.expiration ? share.expiration.toUTC().toISO() : null,
    creatorId: share.creatorId ?? null,
    reverseShareId: share.reverseShareId ?? null,
    ...totals,
  }
}

/** `reverseShare` as events describe it (never its token). */
export function notificationReverseShare(reverseShare: ReverseShare): NotificationReverseShare {
  return {
    id: reverseShare.id,
    creatorId: reverseShare.creatorId,
    remainingUses: reverseShare.remainingUses ?? null,
    expiresAt: reverseShare.shareExpiration ? reverseShare.shareExpiration.toUTC().toISO() : null,
  }
}

/** `user` as events describe it. */
export function notificationUser(user: User): NotificationUser {
  return { id: user.id, username: user.username, email: user.email }
}

/**
 * The user whose own routes a share event follows: the share's signed-in
 * creator, else (a visitor's upload through a reverse share) the reverse
 * share's owner, who sees it in his list; null for a visitor's own share.
 * Like `notificationShare`, call it before opening the transaction.
 */
export async function shareOwnerId(share: ShareFields): Promise<string | null> {
  if (share.creatorId) return share.creatorId
  if (!share.reverseShareId) return null
  const reverseShare = await ReverseShare.find(share.reverseShareId)
  return reverseShare?.creatorId ?? null
}
