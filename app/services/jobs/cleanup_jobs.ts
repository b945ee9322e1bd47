/**
 * The scheduled cleanup jobs, one method each; JobRunner
 * (job_runner.ts) schedules them by name and runs one under a lock, the
 * tests call the methods directly (`await app.container.make(CleanupJobs)`).
 * - expired shares: files and rows removed (with the `share.expired`
 *   notification and `share:before_delete`, in the rows' transaction: a
 *   share still uploading gives its reverse share's use back),
 *   `share:expired` emitted;
 * - expired reverse shares: removed once no share made through them is left
 *   (their shares take their expiry, so the expired-shares job removes those
 *   first; a share whose expiry was edited keeps its own);
 * - unfinished shares: never completed and idle for a day, removed with
 *   their partial uploads (multipart uploads aborted) through
 *   `ShareService.delete`, which gives a reverse share's use back;
 * - orphaned uploads: files still uploading but idle for a day (also those
 *   whose assembly died with its process: they are never marked complete),
 *   with their partial bytes, staged chunks and multipart uploads; stored
 *   objects under `shares/` that no file row knows; staged chunks of files no
 *   longer uploading; and multipart uploads under `shares/` started over a
 *   day ago that no upload session records (on disks that can list them: S3);
 * - stalled uploads: assemblies whose process died are finished
 *   (upload_finalisation.ts), so a restart completes them without the client.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type { ChainableContract } from '@adonisjs/lucid/types/querybuilder'
import { hooks } from '#extensions/hooks/main'
import { storage } from '#extensions/storage/main'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import FileStorage from '#services/files/file_storage'
import ShareService from '#services/shares/share_service'
import { notificationShare, shareOwnerId } from '#services/notifications/event_payloads'
import NotificationRouter from '#services/notifications/notification_router'

/** How long an upload may stay idle before it is considered abandoned. */
export const ABANDONED_AFTER = { days: 1 }

function dbDate(date: DateTime): string {
  return date.toUTC().toFormat(db.connection().dialect.dateTimeFormat)
}

/** A subquery of the chunks received since `cutoff` by the upload sessions whose `sessionColumn` is `outerColumn`. */
function chunksSince(sessionColumn: string, outerColumn: string, cutoff: string) {
  return (query: ChainableContract) =>
    query
      .from('upload_chunks')
      .join('upload_sessions', 'upload_sessions.id', 'upload_chunks.upload_session_id')
      .whereColumn(sessionColumn, outerColumn)
      .where('upload_chunks.created_at', '>=', cutoff)
}

/** See the module comment; resolve it from the container or inject it. */
@inject()
export default class CleanupJobs {
  constructor(
    private fileStorage: FileStorage,
    private shares: ShareService,
    private notifications: NotificationRouter
  ) {}

  /** Deletes shares whose expiry has passed (files first); returns their ids. */
  async expiredShares(now: DateTime = DateTime.utc()): Promise<string[]> {
    const shares = await Share.query()
      .whereNotNull('expiration')
      .where('expiration', '<=', dbDate(now))
    for (const share of shares) {
      const event = { share: await notificationShare(share) }
      const ownerId = await shareOwnerId(share)
      await this.fileStorage.removeShareFiles(share.id)
      await db.transaction(async (trx) => {
        await hooks.filter('share:before_delete', {
          shareId: share.id,
          reverseShareId: share.reverseShareId,
          client: trx,
        })
        await Share.query({ client: trx }).where('id', share.id).delete()
        await this.notifications.emit('share.expired', event, { client: trx, userId: ownerId })
      })
      await hooks.emit('share:expired', { shareId: share.id })
    }
    return shares.map((share) => share.id)
  }

  /**
   * Deletes reverse shares whose expiry has passed and through which no share
   * is left (shares keep their own expiry); returns their ids.
   */
  async expiredReverseShares(now: DateTime = DateTime.utc()): Promise<string[]> {
    const expired = await ReverseShare.query()
      .whereNotNull('share_expiration')
      .where('share_expiration', '<=', dbDate(now))
      .whereNotExists((query) =>
        query.from('shares').whereColumn('shares.reverse_share_id', 'reverse_shares.id')
      )
    if (expired.length > 0) {
      await ReverseShare.query()
        .whereIn(
          'id',
          expired.map((reverseShare) => reverseShare.id)
        )
        .whereNotExists((query) =>
          query.from('shares').whereColumn('shares.reverse_share_id', 'reverse_shares.id')
        )
        .delete()
    }
    return expired.map((reverseShare) => reverseShare.id)
  }

  /** Deletes shares never completed, created over a day ago and without a chunk for a day; returns their ids. */
  async unfinishedShares(now: DateTime = DateTime.utc()): Promise<string[]> {
    const cutoff = dbDate(now.minus(ABANDONED_AFTER))
    const shares = await Share.query()
      .where('completed', false)
      .whereNull('completed_at')
      .where('createdAt', '<', cutoff)
      .whereNotExists(chunksSince('upload_sessions.share_id', 'shares.id', cutoff))
    for (const share of shares) await this.shares.delete(share, 'Unfinished share')
    return shares.map((share) => share.id)
  }

  /**
   * Deletes files still uploading without a chunk for a day (their partial
   * bytes and multipart uploads too) and stored objects under `shares/`
   * without a file row. Returns what it removed.
   */
  async orphanedUploads(now: DateTime = DateTime.utc()) {
    const cutoff = dbDate(now.minus(ABANDONED_AFTER))
    const stale = await ShareFile.query()
      .where('completed', false)
      .where('createdAt', '<', cutoff)
      .whereNotExists(chunksSince('upload_sessions.file_id', 'files.id', cutoff))
      // Not a file being assembled right now (a long staged assembly keeps its heartbeat fresh).
      .whereNotExists((query) =>
        query
          .from('upload_sessions')
          .whereColumn('upload_sessions.file_id', 'files.id')
          .where('upload_sessions.assembly_heartbeat_at', '>=', cutoff)
      )
    for (const file of stale) await this.fileStorage.deleteFile(file)
    const objects = await this.removeOrphanedObjects()
    const multipartUploads = await this.abortOrphanedMultipartUploads(now)
    return { files: stale.map((file) => file.id), objects, multipartUploads }
  }

  /**
   * Aborts the multipart uploads under `shares/` started before a day ago
   * whose upload id no `upload_sessions` row holds (the row is gone: its file
   * or share was deleted while a part was in flight, the process died between
   * starting the upload and recording it, or a staged assembly was cut
   * short), on every disk that can list its multipart uploads. Returns them
   * as `<disk>:<key>:<uploadId>`. A disk that fails (e.g. S3 not configured) is
   * skipped with a debug log.
   */
  async abortOrphanedMultipartUploads(now: DateTime = DateTime.utc()): Promise<string[]> {
    const cutoff = now.minus(ABANDONED_AFTER).toMillis()
    const aborted: string[] = []
    for (const name of storage.names()) {
      try {
        const disk = storage.use(name)
        if (!disk.supports('multipartListing')) continue
        let token: string | undefined
        do {
          const page = await disk.listMultipartUploads('shares', { paginationToken: token })
          const old = page.uploads.filter((upload) => upload.initiatedAt.getTime() < cutoff)
          const known = new Set<string>()
          if (old.length > 0) {
            const rows = await db
              .from('upload_sessions')
              .whereIn(
                'multipart_upload_id',
                old.map((upload) => upload.uploadId)
              )
              .select('multipart_upload_id')
            for (const row of rows) known.add(row.multipart_upload_id)
          }
          for (const upload of old) {
            if (known.has(upload.uploadId)) continue
            await disk.abortMultipartUpload(upload.key, upload.uploadId)
            aborted.push(`${name}:${upload.key}:${upload.uploadId}`)
          }
          token = page.paginationToken
        } while (token)
      } catch (error) {
        logger.debug(
          { err: error, disk: name },
          'orphaned multipart uploads: skipped a disk (not configured or unreachable)'
        )
      }
    }
    return aborted
  }

  /**
   * Deletes objects `shares/<shareId>/<fileId>` (and staged chunks
   * `<key>.chunks/<n>`) whose file row is gone, and staged chunks of files
   * without an upload session (complete: a duplicate chunk staged after the
   * assembly had removed the others), on every disk.
   */
  private async removeOrphanedObjects(): Promise<string[]> {
    const removed: string[] = []
    for (const name of storage.names()) {
      try {
        const disk = storage.use(name)
        const { objects } = await disk.listAll('shares', { recursive: true })
        for (const object of objects) {
          if (!('key' in object)) continue
          const match = /^shares\/[^/]+\/([0-9a-f-]{36})(\.part\d+|\.chunks\/\d+)?$/.exec(
            object.key
          )
          const fileId = match?.[1]
          if (!fileId) continue
          if (await ShareFile.find(fileId)) {
            const staged = match[2]?.startsWith('.chunks/')
            if (!staged || (await db.from('upload_sessions').where('file_id', fileId).first()))
              continue
          }
          await disk.delete(object.key)
          removed.push(`${name}:${object.key}`)
        }
      } catch (error) {
        logger.debug({ err: error, disk: name }, 'orphan scan skipped a disk')
      }
    }
    return removed
  }
}
