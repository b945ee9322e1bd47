/**
 * Removing everything a user shared: their shares and the shares uploaded
 * through their reverse shares, with the stored bytes of every file and any
 * unfinished upload (multipart upload or separately stored parts). Used when a user is deleted (by themselves or
 * by an admin).
 */
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import ReverseShare from '#models/reverse_share'
import { storage } from '#extensions/storage/main'
import FileStorage from '#services/files/file_storage'

/** What `DeleteSharesOfUser.handle` removed. */
export interface DeletedShares {
  /** Ids of the deleted shares. */
  shareIds: string[]
  /** Stored objects that were deleted (`disk`, `key`). */
  files: { disk: string; key: string }[]
}

/** Deletes everything a user shared. Resolve it from the container or inject it. */
@inject()
export default class DeleteSharesOfUser {
  constructor(protected fileStorage: FileStorage) {}

  /**
   * Deletes the shares of `userId` (created by them, or uploaded through one of
   * their reverse shares): first the rows (files, sessions, security and
   * recipients go with their share by cascade), then the stored bytes and
   * unfinished multipart uploads, best effort (a storage failure is logged, it
   * never brings the rows back). Returns what was removed.
   */
  async handle(userId: string): Promise<DeletedShares> {
    const reverseShareIds = ReverseShare.query().select('id').where('creatorId', userId)
    const shares = await Share.query()
      .select('id')
      .where('creatorId', userId)
      .orWhereIn('reverseShareId', reverseShareIds)
    const shareIds = shares.map((share) => share.id)
    if (shareIds.length === 0) return { shareIds, files: [] }

    const files = await ShareFile.query().whereIn('shareId', shareIds)
    const sessions = await UploadSession.query().whereIn('shareId', shareIds)
    const fileById = new Map(files.map((file) => [file.id, file]))

    await db.from(Share.table).whereIn('id', shareIds).delete()

    for (const session of sessions) {
      const file = fileById.get(session.fileId)
      if (file) await this.fileStorage.abortUpload(file, session)
    }
    const removed: DeletedShares['files'] = []
    for (const file of files) {
      try {
        await storage.use(file.disk).delete(file.storageKey)
        removed.push({ disk: file.disk, key: file.storageKey })
      } catch (error) {
        logger.warn(
          { err: error, fileId: file.id, disk: file.disk },
          'could not delete a stored file of a deleted share'
        )
      }
    }
    return { shareIds, files: removed }
  }
}
