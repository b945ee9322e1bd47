/**
 * Writes the chunks of one file to its disk, by the disk's capabilities:
 * - random-access writes (local disk): each chunk at its byte offset
 *   (`chunkIndex * chunkSize`), so chunks may arrive in any order or in
 *   parallel, and a retried chunk rewrites the same bytes;
 * - multipart uploads (S3-like): chunk i is part i + 1 of the upload whose id
 *   is kept in `upload_sessions.multipart_upload_id`;
 * - neither: each chunk is its own object, concatenated when the last arrives.
 * The request body is streamed through a byte counter that stops at the
 * chunk size: nothing is buffered whole.
 */
import { Readable, Transform, type TransformCallback } from 'node:stream'
import type { StorageDisk } from '#extensions/storage/main'
import type ShareFile from '#models/share_file'
import type UploadSession from '#models/upload_session'
import { partKey } from '#services/files/file_storage'
import { shareErrors } from '#services/shares/share_errors'

/** Counts the bytes passing through; fails with 413 past `limit` without letting the excess through. */
export class ByteLimit extends Transform {
  bytes = 0

  constructor(readonly limit: number) {
    super()
  }

  _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length
    if (this.bytes > this.limit) return callback(shareErrors.chunkTooLarge(this.limit))
    callback(null, chunk)
  }
}

/** How a session's chunks are stored on its disk. */
export type ChunkMode = 'randomAccess' | 'multipart' | 'parts'

/** The mode a new upload on `disk` uses. */
export function chunkModeFor(disk: StorageDisk): ChunkMode {
  if (disk.supports('randomAccessWrite')) return 'randomAccess'
  if (disk.supports('multipartUpload')) return 'multipart'
  return 'parts'
}

/** The mode of an existing session (a multipart id means multipart). */
export function sessionMode(disk: StorageDisk, session: UploadSession): ChunkMode {
  if (session.multipartUploadId) return 'multipart'
  return disk.supports('randomAccessWrite') ? 'randomAccess' : 'parts'
}

/**
 * Streams one chunk to the disk. Resolves to the part's etag (multipart) or
 * null; rejects with the limiter's 413, or the storage error.
 */
export async function writeChunk(
  disk: StorageDisk,
  file: ShareFile,
  session: UploadSession,
  chunkIndex: number,
  body: ByteLimit,
  contentLength: number | null
): Promise<string | null> {
  switch (sessionMode(disk, session)) {
    case 'randomAccess':
      await disk.writeAt(file.storageKey, chunkIndex * session.chunkSize, body)
      return null
    case 'multipart': {
      const part = await disk.uploadPart(file.storageKey, session.multipartUploadId!, chunkIndex + 1, body, {
        contentLength: contentLength ?? undefined,
      })
      return part.etag
    }
    case 'parts':
      await disk.putStream(partKey(file.storageKey, chunkIndex), body)
      return null
  }
}

/** Makes the file whole once every chunk is stored (multipart completion or concatenation of the parts). */
export async function assembleFile(
  disk: StorageDisk,
  file: ShareFile,
  session: UploadSession,
  etags: { chunkIndex: number; etag: string | null }[]
): Promise<void> {
  const mode = sessionMode(disk, session)
  if (mode === 'multipart') {
    const parts = etags.map((chunk) => ({ partNumber: chunk.chunkIndex + 1, etag: chunk.etag ?? '' }))
    await disk.completeMultipartUpload(file.storageKey, session.multipartUploadId!, parts)
  } else if (mode === 'parts') {
    const keys = Array.from({ length: session.totalChunks }, (_, index) => partKey(file.storageKey, index))
    const joined = Readable.from(
      (async function* () {
        for (const key of keys) yield* await disk.getStream(key)
      })()
    )
    await disk.putStream(file.storageKey, joined)
    for (const key of keys) await disk.delete(key)
  }
}
