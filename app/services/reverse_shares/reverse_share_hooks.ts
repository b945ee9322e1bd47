/**
 * The reverse shares' side of the share lifecycle, built on the core's hook
 * catalog (`#extensions/hooks/main`) the way a plugin would: filter handlers
 * registered at boot (Tern's provider) and an action event.
 *
 * - `share:before_authorize_create`: a live `reverse_share_token` makes the
 *   new share belong to that reverse share and take its expiry (SharePolicy
 *   then lets a visitor create it even with unauthenticated shares off); a
 *   dead token is 403 "Reverse share token not found" (the controller clears
 *   the cookie);
 * - `share:before_insert`: one use is taken for the new share, atomically and
 *   in its transaction; with none left (another uploader took the last one
 *   since the token was checked) or the reverse share expired, the share is
 *   refused like a dead token (403 "Reverse share token not found") before
 *   any byte is sent;
 * - `share:before_delete`: a share removed before it was ever completed gives
 *   its use back (in the removal's transaction);
 * - `share:before_upload`: the reverse share's `maxShareSize` caps its shares (413);
 * - `share:before_complete` (the first completion only: reopening and
 *   completing again neither counts nor mails twice): the use the share took
 *   at its creation is spent (a share made before uses were reserved takes
 *   one now, atomically); when the reverse share expired (or, for such an
 *   older share, has no use left) the share is deleted with its files and the
 *   uploader gets 410 `reverse_share_unavailable`. This is a filter, not a
 *   `share:completed` listener, because it may refuse. Then
 *   `reverse_share:used` is emitted, the `reverse_share.used` notification is
 *   routed to the reverse share's owner, and the creator is mailed as in
 *   Pingvin (the reply's `notifyReverseShareCreator`);
 * - `share:before_access`: shares of a reverse share with `publicAccess` off
 *   are visible only to the reverse share's creator (and the share's own
 *   signed-in creator, as in Pingvin): 403 `private_share` for everyone else.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { FilterHandler, HookRunner } from '#extensions/hooks/main'
import Share from '#models/share'
import ShareMailService from '#services/mail/share_mails'
import { notificationReverseShare, notificationShare } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'
import { reverseShareErrors } from '#services/reverse_shares/reverse_share_errors'
import ReverseShareService from '#services/reverse_shares/reverse_share_service'
import ShareService from '#services/shares/share_service'

/** The `share:deleted` reason of a share whose reverse share had no use left at completion. */
export const REVERSE_SHARE_USED_UP = 'Reverse share used up'

/** The reverse shares' filter handlers; `register` adds them to a hook runner. */
@inject()
export default class ReverseShareHooks {
  #runner?: HookRunner

  constructor(
    private reverseShares: ReverseShareService,
    private shares: ShareService,
    private shareMails: ShareMailService,
    private notifications: NotificationRouter
  ) {}

  /**
   * Adds every handler to `runner` (adding them twice is a no-op) and emits
   * `reverse_share:used` through it.
   */
  register(runner: HookRunner): void {
    this.#runner = runner
    runner
      .addFilter('share:before_authorize_create', this.authorizeCreation)
      .addFilter('share:before_insert', this.reserveUse)
      .addFilter('share:before_delete', this.releaseUse)
      .addFilter('share:before_upload', this.capUpload)
      .addFilter('share:before_complete', this.countUse)
      .addFilter('share:before_access', this.hidePrivate)
  }

  /**
   * The live reverse share of the request's token (which lets a visitor
   * create the share, SharePolicy.create). No token: unchanged. A dead one: 403.
   */
  authorizeCreation: FilterHandler<'share:before_authorize_create'> = async (payload) => {
    if (payload.reverseShareToken === null) return payload
    const reverseShare = await this.reverseShares.findLive(payload.reverseShareToken, {
      creatorId: payload.creatorId,
      ownerTokenHash: payload.ownerTokenHash,
    })
    if (!reverseShare) throw reverseShareErrors.tokenRefused()
    return {
      ...payload,
      reverseShare: { id: reverseShare.id, shareExpiration: reverseShare.shareExpiration },
    }
  }

  /**
   * Takes one of the reverse share's uses for the share being stored, in its
   * transaction, or the use the same uploader holds through an unfinished
   * share of it (starting again after a failed upload); 403 "Reverse share
   * token not found" when neither is there or the reverse share expired
   * (what Pingvin answers a used-up token).
   */
  reserveUse: FilterHandler<'share:before_insert'> = async (payload) => {
    if (!payload.reverseShareId) return payload
    const { reverseShareId, client } = payload
    const holder = { creatorId: payload.creatorId, ownerTokenHash: payload.ownerTokenHash }
    const reserved =
      (await this.reverseShares.consumeUse(reverseShareId, client)) ||
      (await this.reverseShares.takeOverUse(reverseShareId, holder, client))
    if (!reserved) throw reverseShareErrors.tokenRefused()
    return { ...payload, reverseShareUseReserved: true }
  }

  /** Gives back the use of a share removed before it was ever completed. */
  releaseUse: FilterHandler<'share:before_delete'> = async (payload) => {
    if (payload.reverseShareId)
      await this.reverseShares.releaseUse(payload.shareId, payload.reverseShareId, payload.client)
    return payload
  }

  /**
   * Refuses a chunk for a share whose use another share of the same uploader
   * took over (410), and lowers the share's size cap to its reverse share's
   * `maxShareSize`.
   */
  capUpload: FilterHandler<'share:before_upload'> = async (payload) => {
    if (!payload.reverseShareId) return payload
    if (await this.reverseShares.wasGivenUp(payload.shareId))
      throw reverseShareErrors.uploadGivenUp()
    const reverseShare = await this.reverseShares.find(payload.reverseShareId)
    if (!reverseShare) return payload
    const cap = Math.min(payload.maxShareSize ?? Infinity, reverseShare.maxShareSize)
    return { ...payload, maxShareSize: cap }
  }

  /**
   * Spends the use (first completion only; a share made before uses were
   * reserved takes one now), emits `reverse_share:used`, mails the reverse
   * share's creator and answers `notifyReverseShareCreator`.
   */
  countUse: FilterHandler<'share:before_complete'> = async (payload) => {
    if (!payload.reverseShareId) return payload
    const reverseShare = await this.reverseShares.find(payload.reverseShareId)
    if (!payload.firstCompletion) {
      return reverseShare
        ? { ...payload, reply: { ...payload.reply, notifyReverseShareCreator: false } }
        : payload
    }
    const share = await Share.findOrFail(payload.shareId)
    const kept = share.reverseShareUseReserved
      ? await this.reverseShares.isUnexpired(payload.reverseShareId)
      : await this.reverseShares.consumeUse(payload.reverseShareId)
    if (!kept) await this.#discard(share)
    if (!reverseShare) return payload
    await this.#runner?.emit('reverse_share:used', {
      reverseShareId: reverseShare.id,
      shareId: share.id,
    })
    await this.#notifyUse(reverseShare.id, share)
    const notified = await this.shareMails.notifyReverseShareCreator(share, reverseShare)
    return { ...payload, reply: { ...payload.reply, notifyReverseShareCreator: notified } }
  }

  /** Marks a share of a non-public reverse share private, unless `userId` is its creator or the share's. */
  hidePrivate: FilterHandler<'share:before_access'> = async (payload) => {
    if (!payload.reverseShareId || payload.private) return payload
    const reverseShare = await this.reverseShares.find(payload.reverseShareId)
    if (!reverseShare || reverseShare.publicAccess) return payload
    const isPrivate =
      payload.userId === null ||
      (payload.userId !== reverseShare.creatorId && payload.userId !== payload.creatorId)
    return isPrivate ? { ...payload, private: true } : payload
  }

  /** Emits `reverse_share.used` to the reverse share's owner (with the uses left after this one). */
  async #notifyUse(reverseShareId: string, share: Share): Promise<void> {
    const reverseShare = await this.reverseShares.find(reverseShareId)
    if (!reverseShare) return
    const event = {
      reverseShare: notificationReverseShare(reverseShare),
      share: await notificationShare(share),
    }
    await this.notifications.emit('reverse_share.used', event, { userId: reverseShare.creatorId })
  }

  /**
   * The reverse share expired (or had no use left for an older share): hides
   * the share, deletes it with its stored files (as never completed: a use it
   * reserved comes back), and refuses with 410.
   */
  async #discard(share: Share): Promise<never> {
    await db.from('shares').where('id', share.id).update({ completed: false, completed_at: null })
    share.completed = false
    share.completedAt = null
    await this.shares.delete(share, REVERSE_SHARE_USED_UP)
    throw reverseShareErrors.unavailableOnCompletion()
  }
}
