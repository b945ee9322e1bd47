/**
 * The "expiring soon" job: shares and reverse shares whose expiry falls
 * within the next 24 hours get `share.expiring` / `reverse_share.expiring`,
 * each once for its current expiry.
 *
 * Once is kept by `expiry_notified_at` (migration 1540): a turn claims a row
 * with one conditional UPDATE (`WHERE expiry_notified_at IS NULL`) and emits
 * in the same transaction, so two instances never notify the same share
 * twice and a rolled-back claim leaves no outbox row. Editing a share's
 * expiry clears the mark (ShareService.update), so the new expiry is
 * announced again. Only completed, not removed shares are announced (an
 * upload still in progress is nobody's share yet), and only reverse shares
 * with a use left.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import { affectedRows } from '#services/files/upload_sessions'
import {
  notificationReverseShare,
  notificationShare,
  shareOwnerId,
} from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'

/** How long before its expiry a share or reverse share is announced. */
export const EXPIRY_NOTICE_WINDOW = { hours: 24 }

/** What a turn announced. */
export interface ExpiryNotices {
  shares: string[]
  reverseShares: string[]
}

function dbDate(date: DateTime): string {
  return date.toUTC().toFormat(db.connection().dialect.dateTimeFormat)
}

/** See the module comment. Resolved by the schedule (schedule.ts) at each turn. */
@inject()
export default class ExpiryNoticeJob {
  constructor(private notifications: NotificationRouter) {}

  /** One turn at `now`: announces every share and reverse share expiring within the window. */
  async run(now: DateTime = DateTime.utc()): Promise<ExpiryNotices> {
    return { shares: await this.shares(now), reverseShares: await this.reverseShares(now) }
  }

  /** Announces the completed shares expiring within the window and not announced yet; returns their ids. */
  async shares(now: DateTime = DateTime.utc()): Promise<string[]> {
    const due = await Share.query()
      .where('completed', true)
      .whereNull('removed_reason')
      .whereNull('expiry_notified_at')
      .whereNotNull('expiration')
      .where('expiration', '>', dbDate(now))
      .where('expiration', '<=', dbDate(now.plus(EXPIRY_NOTICE_WINDOW)))
    const announced: string[] = []
    for (const share of due) {
      const payload = { share: await notificationShare(share) }
      const userId = await shareOwnerId(share)
      const claimed = await db.transaction(async (trx) => {
        const updated = await trx
          .from(Share.table)
          .where('id', share.id)
          .whereNull('expiry_notified_at')
          .update({ expiry_notified_at: dbDate(now) })
        if (affectedRows(updated) === 0) return false
        await this.notifications.emit('share.expiring', payload, { client: trx, userId })
        return true
      })
      if (claimed) announced.push(share.id)
    }
    return announced
  }

  /** Announces the reverse shares with a use left expiring within the window; returns their ids. */
  async reverseShares(now: DateTime = DateTime.utc()): Promise<string[]> {
    const due = await ReverseShare.query()
      .whereNull('expiry_notified_at')
      .whereNotNull('share_expiration')
      .where('share_expiration', '>', dbDate(now))
      .where('share_expiration', '<=', dbDate(now.plus(EXPIRY_NOTICE_WINDOW)))
      .where((query) => query.whereNull('remaining_uses').orWhere('remaining_uses', '>', 0))
    const announced: string[] = []
    for (const reverseShare of due) {
      const claimed = await db.transaction(async (trx) => {
        const updated = await trx
          .from(ReverseShare.table)
          .where('id', reverseShare.id)
          .whereNull('expiry_notified_at')
          .update({ expiry_notified_at: dbDate(now) })
        if (affectedRows(updated) === 0) return false
        await this.notifications.emit(
          'reverse_share.expiring',
          { reverseShare: notificationReverseShare(reverseShare) },
          { client: trx, userId: reverseShare.creatorId }
        )
        return true
      })
      if (claimed) announced.push(reverseShare.id)
    }
    return announced
  }
}
