/**
 * Where the bytes of share files live: each file records its disk
 * (`files.disk`) and key (`files.storage_key`, `shares/<shareId>/<fileId>`),
 * so changing the default disk never breaks old shares. Removing a file
 * also drops its unfinished upload (multipart upload or staged chunks
 * `<key>.chunks/<i>`).
 */
import type { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { deleteStagedChunks, storage, type StorageDisk } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import { sessionMode } from '#services/files/chunk_writer'
import { byteWindow } from '#services/files/http_file_headers'

/** The storage key of a share file. */
export function storageKeyFor(shareId: string, fileId: string): string {
  return `shares/${shareId}/${fileId}`
}

/** True when `error` (or one of its causes) is "no space left on device". */
export function isNoSpaceError(error: unknown): boolean {
  let current = error as { code?: unknown; cause?: unknown } | undefined
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.code === 'ENOSPC' || current.code === 'EDQUOT') return true
    current = current.cause as typeof current
  }
  return false
}

/** Reads and removes the stored bytes of share files; resolve it from the container or inject it. */
@inject()
export default class FileStorage {
  /** The disk holding `file` (throws `E_STORAGE_DISK_UNKNOWN` when its plugin is gone). */
  diskOf(file: Pick<ShareFile, 'disk'>): StorageDisk {
    return storage.use(file.disk)
  }

  /**
   * Bytes `start..end` (inclusive) of a stored file, streamed. On a disk with
   * ranged reads (local, S3) only those bytes are read; otherwise the stream
   * starts at the beginning and the bytes before `start` are skipped.
   * Rejects with the storage error (`E_STORAGE_NOT_FOUND` for a missing
   * object).
   */
  async openRange(file: ShareFile, start: number, end: number): Promise<Readable> {
    const disk = this.diskOf(file)
    if (disk.supports('rangeRead')) return disk.getStreamRange(file.storageKey, { start, end })
    return byteWindow(await disk.getStream(file.storageKey), start, end)
  }

  /**
   * Drops an unfinished upload of `file`: aborts its multipart upload and
   * deletes its staged chunks. Staged chunks are deleted on every disk but
   * those writing at offsets (which never stage), whatever the session's mode
   * now says: the disk's capabilities may have changed since the upload
   * began, and a stray `<key>.chunks/` must not outlive its file. Never
   * throws (failures are logged; the orphan job retries later).
   */
  async abortUpload(file: ShareFile, session: UploadSession | null): Promise<void> {
    if (!session) return
    try {
      const disk = this.diskOf(file)
      if (session.multipartUploadId) {
        await disk.abortMultipartUpload(file.storageKey, session.multipartUploadId)
      }
      if (sessionMode(disk, session) !== 'randomAccess')
        await deleteStagedChunks(disk, file.storageKey)
    } catch (error) {
      logger.warn({ err: error, fileId: file.id }, 'could not abort the upload of a share file')
    }
  }

  /** Deletes the stored bytes of `file` and its unfinished upload. Never throws (failures are logged). */
  async removeStoredFile(file: ShareFile): Promise<void> {
    const session = await UploadSession.findBy('fileId', file.id)
    await this.abortUpload(file, session)
    try {
      await this.diskOf(file).delete(file.storageKey)
    } catch (error) {
      logger.warn({ err: error, fileId: file.id }, 'could not delete a stored share file')
    }
  }

  /** Deletes the stored bytes of every file of a share (the rows are left to the caller). */
  async removeShareFiles(shareId: string): Promise<void> {
    const files = await ShareFile.query().where('shareId', shareId)
    for (const file of files) await this.removeStoredFile(file)
  }

  /** Deletes one file of a share: stored bytes, upload and row. */
  async deleteFile(file: ShareFile): Promise<void> {
    await this.removeStoredFile(file)
    await ShareFile.query().where('id', file.id).delete()
  }
}
