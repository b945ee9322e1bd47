/**
 * The reverse shares' side of the share lifecycle: implementations of the
 * seams of `#services/shares/share_seams`, installed at boot by
 * `installReverseShareSeams()` (Tern's provider).
 *
 * - creation: a live `reverse_share_token` cookie makes the new share belong
 *   to that reverse share and take its expiry (a visitor may then create one
 *   even with unauthenticated shares off); an invalid cookie answers 404
 *   "Reverse share token not found" and is cleared; a used one is cleared
 *   once the share is stored (see `reverse_share_cookie.ts`);
 * - uploads: the reverse share's `maxShareSize` caps its shares (413);
 * - completion (the first one only: reopening and completing again neither
 *   counts nor mails twice): one use is counted atomically; when none is left
 *   (or the reverse share expired) the share is deleted with its files and the
 *   uploader gets 410 `reverse_share_unavailable`. Then `reverse_share:used`
 *   is emitted, recipients are mailed and the reverse share's creator is
 *   notified;
 * - visibility: shares of a reverse share with `publicAccess` off are visible
 *   only to the reverse share's creator (and the share's own signed-in
 *   creator, as in Pingvin): 403 `private_share` for everyone else.
 */
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { hooks } from '#extensions/hooks/main'
import ReverseShare from '#models/reverse_share'
import type Share from '#models/share'
import type User from '#models/user'
import { notifyReverseShareCreator, sendRecipientMails } from '#services/mail/share_mails'
import { clearReverseShareCookie, reverseShareTokenOf } from '#services/reverse_shares/reverse_share_cookie'
import { reverseShareErrors } from '#services/reverse_shares/reverse_share_errors'
import { consumeReverseShareUse, findLiveReverseShare } from '#services/reverse_shares/reverse_share_service'
import { shareSeams, type ReverseShareForCreation, type ShareSeams } from '#services/shares/share_seams'
import { deleteShare } from '#services/shares/share_service'

/** The `share:deleted` reason of a share whose reverse share had no use left at completion. */
export const REVERSE_SHARE_USED_UP = 'Reverse share used up'

/**
 * `reverseShareForCreation`: the live reverse share of the request's
 * `reverse_share_token` cookie, null without the cookie; 404 "Reverse share
 * token not found" (cookie cleared) for an invalid one. A valid cookie is
 * kept when the creation fails (400: id in use, validation...), so the
 * uploader can retry; `afterCreated` clears it once a share was stored.
 */
export async function reverseShareForCreation(ctx: HttpContext): Promise<ReverseShareForCreation | null> {
  const token = reverseShareTokenOf(ctx)
  if (token === null) return null
  const reverseShare = await findLiveReverseShare(token)
  if (!reverseShare) {
    clearReverseShareCookie(ctx)
    throw reverseShareErrors.tokenNotFound()
  }
  return { id: reverseShare.id, shareExpiration: reverseShare.shareExpiration }
}

/** `afterCreated`: one cookie, one share: clears the cookie a share was just created through. */
export async function forgetReverseShareCookie(ctx: HttpContext, share: Share): Promise<void> {
  if (share.reverseShareId) clearReverseShareCookie(ctx)
}

/** `maxShareSize`: the reverse share's `maxShareSize` for its shares, else null. */
export async function maxShareSizeOf(share: Share): Promise<number | null> {
  if (!share.reverseShareId) return null
  const reverseShare = await ReverseShare.find(share.reverseShareId)
  return reverseShare ? reverseShare.maxShareSize : null
}

/**
 * Counts the use of a share's reverse share; when none was left, hides and
 * deletes the share (stored files too) and throws 410.
 */
async function countUseOrDiscard(share: Share, reverseShareId: string): Promise<void> {
  if (await consumeReverseShareUse(reverseShareId)) return
  await db.from('shares').where('id', share.id).update({ completed: false })
  share.completed = false
  await deleteShare(share, REVERSE_SHARE_USED_UP)
  throw reverseShareErrors.unavailableOnCompletion()
}

/**
 * `afterCompleted`: counts the reverse share's use (atomically, see
 * `consumeReverseShareUse`), emits `reverse_share:used`, mails recipients and
 * the reverse share's creator. Only the first completion of a share does
 * this (`completedAt` still unset on the loaded share).
 */
export async function afterShareCompleted(share: Share): Promise<{ notifyReverseShareCreator?: boolean }> {
  const firstCompletion = !share.completedAt
  const reverseShare = share.reverseShareId ? await ReverseShare.find(share.reverseShareId) : null
  if (!firstCompletion) return reverseShare ? { notifyReverseShareCreator: false } : {}

  if (share.reverseShareId) await countUseOrDiscard(share, share.reverseShareId)
  await sendRecipientMails(share)
  if (!reverseShare) return {}
  await hooks.emit('reverse_share:used', { reverseShareId: reverseShare.id, shareId: share.id })
  return { notifyReverseShareCreator: await notifyReverseShareCreator(share, reverseShare) }
}

/** `isPrivateFor`: true for a share of a non-public reverse share, unless `user` is its creator or the share's. */
export async function isPrivateShareFor(share: Share, user: User | null): Promise<boolean> {
  if (!share.reverseShareId) return false
  const reverseShare = await ReverseShare.find(share.reverseShareId)
  if (!reverseShare || reverseShare.publicAccess) return false
  if (!user) return true
  return user.id !== reverseShare.creatorId && user.id !== share.creatorId
}

/** The reverse shares' implementations of the share seams. */
export const reverseShareSeams: ShareSeams = {
  reverseShareForCreation,
  afterCreated: forgetReverseShareCookie,
  maxShareSize: maxShareSizeOf,
  afterCompleted: afterShareCompleted,
  isPrivateFor: isPrivateShareFor,
}

/** Replaces the neutral default seams with the reverse shares' ones (idempotent). */
export function installReverseShareSeams(): void {
  Object.assign(shareSeams, reverseShareSeams)
}
