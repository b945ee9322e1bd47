/**
 * Writes the chunks of one file to its disk with the storage extension's
 * chunked-upload strategies (`chunkedUploadStrategy`, see
 * app/extensions/storage/chunked_upload.ts), chosen when the upload starts:
 * - `randomAccess` (local disk, any number of chunks): each chunk at its byte offset
 *   (`chunkIndex * chunkSize`), so chunks may arrive in any order or in
 *   parallel, and a retried chunk rewrites the same bytes;
 * - `single` (one chunk, other disks): one streamed `putStream` of the chunk;
 * - `multipart` (S3-like, chunks of at least the store's minimum part size):
 *   chunk i is part i + 1 of the upload whose id is kept in
 *   `upload_sessions.multipart_upload_id`, completed when the last arrives;
 * - `staged` (S3 with small chunks, or a disk with neither capability): each
 *   chunk is its own object `<key>.chunks/<i>`, streamed into the file when
 *   the last one arrives, then deleted.
 * The request body is streamed through a byte counter that stops at the
 * chunk size: nothing is buffered whole. The strategy is derived from the
 * session (its multipart upload id, its chunk size and count) and the disk,
 * so any instance can take the next chunk.
 */
import { Transform, type TransformCallback } from 'node:stream'
import { Exception } from '@adonisjs/core/exceptions'
import {
  assembleStagedChunks,
  chunkedUploadStrategy,
  partNumberOfChunk,
  stagedChunkKey,
  type ChunkedUploadStrategy,
  type StorageDisk,
} from '#extensions/storage/main'
import type ShareFile from '#models/share_file'
import type UploadSession from '#models/upload_session'
import { noteTransferred } from '#services/files/transfer_gc_pacer'
import { transferTotals } from '#services/system/transfer_totals'
import { shareErrors } from '#services/shares/share_errors'

/**
 * Counts the bytes passing through; fails past `limit` without letting the
 * excess through, with `tooLarge()` (413 "A chunk can be at most ..." by default).
 */
export class ByteLimit extends Transform {
  bytes = 0

  constructor(
    readonly limit: number,
    private tooLarge: () => Error = () => shareErrors.chunkTooLarge(limit)
  ) {
    super()
  }

  _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length
    transferTotals.uploaded += chunk.length
    noteTransferred(chunk.length)
    if (this.bytes > this.limit) return callback(this.tooLarge())
    callback(null, chunk)
  }
}

/** How a session's chunks are stored on its disk (the extension's strategies). */
export type ChunkMode = ChunkedUploadStrategy

/**
 * The mode a new upload of `totalChunks` chunks of `chunkSize` bytes uses on
 * `disk`: `chunkedUploadStrategy`, except that a disk with random-access
 * writes always writes at offsets (also a single chunk: the file is opened
 * before the body streams, so a failed chunk never leaves a file created
 * after its clean-up).
 */
export function chunkModeFor(
  disk: StorageDisk,
  shape: { chunkSize: number; totalChunks: number }
): ChunkMode {
  if (disk.supports('randomAccessWrite')) return 'randomAccess'
  return chunkedUploadStrategy(disk, shape)
}

/**
 * The mode of an existing session: multipart when it holds an upload id,
 * else what the disk and the session's shape give (never multipart without
 * an upload id: such chunks are staged).
 */
export function sessionMode(disk: StorageDisk, session: UploadSession): ChunkMode {
  if (session.multipartUploadId) return 'multipart'
  const mode = chunkModeFor(disk, session)
  return mode === 'multipart' ? 'staged' : mode
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
  const length = contentLength ?? undefined
  switch (sessionMode(disk, session)) {
    case 'single':
      await disk.putStream(file.storageKey, body, {
        contentLength: length,
        contentType: file.mimeType,
      })
      return null
    case 'randomAccess':
      await disk.writeAt(file.storageKey, chunkIndex * session.chunkSize, body)
      return null
    case 'multipart': {
      // A part's length must be sent up front: every chunk but the last is
      // exactly the chunk size (checked while streaming); the last needs its
      // Content-Length (browsers always send one for a Blob).
      const isLast = chunkIndex === session.totalChunks - 1
      if (length === undefined && isLast) {
        throw new Exception('Content-Length is required for the last chunk', { status: 411 })
      }
      const part = await disk.uploadPart(
        file.storageKey,
        session.multipartUploadId!,
        partNumberOfChunk(chunkIndex),
        body,
        { contentLength: length ?? session.chunkSize }
      )
      return part.etag
    }
    case 'staged':
      await disk.putStream(stagedChunkKey(file.storageKey, chunkIndex), body, {
        contentLength: length,
      })
      return null
  }
}

/**
 * Makes the file whole once every chunk is stored: completes the multipart
 * upload, or streams the staged chunks into the file (sizes in chunk order);
 * the other modes wrote the file in place. Then makes it durable (StorageDisk.sync).
 */
export async function assembleFile(
  disk: StorageDisk,
  file: ShareFile,
  session: UploadSession,
  chunks: { chunkIndex: number; size: number; etag: string | null }[]
): Promise<void> {
  const mode = sessionMode(disk, session)
  if (mode === 'multipart') {
    const parts = chunks.map((chunk) => ({
      partNumber: partNumberOfChunk(chunk.chunkIndex),
      etag: chunk.etag ?? '',
    }))
    await disk.completeMultipartUpload(file.storageKey, session.multipartUploadId!, parts)
  } else if (mode === 'staged') {
    const sizes = [...chunks].sort((a, b) => a.chunkIndex - b.chunkIndex).map((chunk) => chunk.size)
    await assembleStagedChunks(disk, file.storageKey, sizes, { contentType: file.mimeType })
  }
  // Nothing is reported saved before it is durable: on the local
  // disk the chunks are in the page cache until flushed; flushed once here.
  await disk.sync(file.storageKey)
}
