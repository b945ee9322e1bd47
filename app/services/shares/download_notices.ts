/**
 * The `share.downloaded` notification: "someone downloaded your share".
 *
 * - Downloads by the share's owner (its signed-in creator, the reverse
 *   share's owner for a visitor's upload through it, or the browser holding
 *   a visitor share's ownership cookie) are not announced: the owner checking
 *   his own files is not news. An admin's download is announced.
 * - At most one event per share every 15 minutes (`DOWNLOAD_NOTICE_WINDOW_MS`):
 *   the event id is derived from the share and the window, so the outbox
 *   keeps the first and ignores the others (its unique key on event,
 *   channel and target). A 100-file share fetched file by file, or as a
 *   zip, is one event; the payload names the first file (null for the zip).
 *
 * Called by the download service once the answer will carry bytes (GET,
 * not HEAD, 304 or 416), outside any transaction (a download changes nothing
 * else).
 */
import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import type Share from '#models/share'
import type ShareFile from '#models/share_file'
import { notificationShare, shareOwnerId } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'
import { ownsShare } from '#services/shares/share_owner'

/** One `share.downloaded` per share per this many milliseconds. */
export const DOWNLOAD_NOTICE_WINDOW_MS = 15 * 60_000

/** Who downloads: the signed-in user's id and the browser's ownership-cookie digest (null when absent). */
export interface Downloader {
  userId: string | null
  ownerTokenHash: string | null
}

/** The event id of downloads of `shareId` at `at`: the same UUID-shaped id within one window. */
export function downloadEventId(shareId: string, at: Date): string {
  const window = Math.floor(at.getTime() / DOWNLOAD_NOTICE_WINDOW_MS)
  const hex = createHash('sha256')
    .update(JSON.stringify(['share.downloaded', shareId, window]))
    .digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class DownloadNotices {
  constructor(private notifications: NotificationRouter) {}

  /** Announces a download of `file` (null: the zip) of `share` by `downloader`, unless it is the owner. */
  async downloaded(
    share: Share,
    file: ShareFile | null,
    downloader: Downloader,
    at: Date = new Date()
  ): Promise<void> {
    const ownerId = await shareOwnerId(share)
    if (downloader.userId !== null && downloader.userId === ownerId) return
    if (ownsShare(share, null, downloader.ownerTokenHash)) return
    const payload = {
      share: await notificationShare(share),
      file: file ? { id: file.id, name: file.name, size: file.size } : null,
    }
    await this.notifications.emit('share.downloaded', payload, {
      userId: ownerId,
      eventId: downloadEventId(share.id, at),
      occurredAt: at,
    })
  }
}
