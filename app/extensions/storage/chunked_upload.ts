/**
 * How the chunks of an upload (`POST /api/shares/:id/files`) are stored on
 * a disk, without buffering a file and without upload state in memory (any
 * instance may receive the next chunk). Pick the strategy once, when the
 * upload session is created, and keep it with the session:
 *
 * | strategy       | chunk `i` (0-based) goes to                                    | on the last chunk                      |
 * |----------------|----------------------------------------------------------------|----------------------------------------|
 * | `single`       | the only chunk: `putStream(key, body, { contentLength })`      | nothing                                |
 * | `randomAccess` | `writeAt(key, i * chunkSize, body)`                             | nothing                                |
 * | `multipart`    | `uploadPart(key, uploadId, i + 1, body, { contentLength })`; keep the upload id in `upload_sessions.multipart_upload_id` and the etag in `upload_chunks.etag` | `completeMultipartUpload(key, uploadId, parts)` |
 * | `staged`       | its own object: `putStream(stagedChunkKey(key, i), body, { contentLength })` | `assembleStagedChunks(disk, key, sizes)` |
 *
 * The rule: S3-like stores reject parts below `multipartLimits.minPartSize`
 * (5 MiB on Amazon S3) except the last one, and allow at most `maxParts`
 * parts. When `share.chunkSize` fits (>= 5 MiB, <= 5 GiB) and the file has at
 * most `maxParts` chunks, chunk i is part i + 1. Otherwise each chunk is
 * staged as its own object and, once all are there, streamed in order into
 * the final object (parts of at least `minPartSize`), then the staged objects
 * are deleted. Buffering chunks to reach 5 MiB is not allowed (chunks of one
 * part could reach different instances), and S3's server-side
 * `UploadPartCopy` cannot join small objects either (a copied part obeys the
 * same 5 MiB minimum), hence the streamed re-assembly. Retrying a chunk is
 * safe in every strategy: it overwrites the same offset, part or object.
 */
import { Readable } from 'node:stream'
import type { WriteOptions } from 'flydrive/types'
import {
  DEFAULT_MULTIPART_LIMITS,
  supportsMultipartUpload,
  supportsRandomAccessWrite,
  type MultipartLimits,
  type UploadedPart,
} from './capabilities.js'
import { normalizeStorageKey, type StorageDisk } from './storage_disk.js'

/** See the module comment. */
export type ChunkedUploadStrategy = 'single' | 'randomAccess' | 'multipart' | 'staged'

/** The shape of an upload: every chunk but the last is `chunkSize` bytes. */
export interface ChunkedUploadShape {
  /** Bytes of every chunk but the last. */
  chunkSize: number
  /** Number of chunks (>= 1; an empty file is one empty chunk). */
  totalChunks: number
}

/** The part-size rules of `disk`, or undefined when it has no multipart uploads. */
export function multipartLimitsOf(disk: StorageDisk): MultipartLimits | undefined {
  const driver = disk.driver
  if (!supportsMultipartUpload(driver)) return undefined
  return driver.multipartLimits ?? DEFAULT_MULTIPART_LIMITS
}

/**
 * Picks how an upload of `shape` is stored on `disk` (see the module
 * comment): `single` for one chunk, `randomAccess` when the disk writes at
 * offsets, `multipart` when chunks fit the disk's part limits, else `staged`
 * (works on every disk).
 */
export function chunkedUploadStrategy(
  disk: StorageDisk,
  shape: ChunkedUploadShape
): ChunkedUploadStrategy {
  if (shape.totalChunks <= 1) return 'single'
  if (supportsRandomAccessWrite(disk.driver)) return 'randomAccess'
  const limits = multipartLimitsOf(disk)
  if (
    limits &&
    shape.chunkSize >= limits.minPartSize &&
    shape.chunkSize <= limits.maxPartSize &&
    shape.totalChunks <= limits.maxParts
  ) {
    return 'multipart'
  }
  return 'staged'
}

/** The multipart part number of chunk `chunkIndex` (0-based): `chunkIndex + 1`. */
export function partNumberOfChunk(chunkIndex: number): number {
  return chunkIndex + 1
}

/**
 * Where the `staged` strategy keeps chunk `chunkIndex` of `key`:
 * `<key>.chunks/<chunkIndex>`. Throws `E_STORAGE_INVALID_KEY` for a bad key.
 */
export function stagedChunkKey(key: string, chunkIndex: number): string {
  if (!Number.isSafeInteger(chunkIndex) || chunkIndex < 0) {
    throw new RangeError(`chunkIndex must be a non-negative integer (got ${chunkIndex})`)
  }
  return `${stagedChunksPrefix(key)}/${chunkIndex}`
}

/** The prefix holding the staged chunks of `key` (`<key>.chunks`). */
export function stagedChunksPrefix(key: string): string {
  return `${normalizeStorageKey(key)}.chunks`
}

/** Deletes the staged chunks of `key` (an aborted or cleaned-up upload). Missing ones are fine. */
export async function deleteStagedChunks(disk: StorageDisk, key: string): Promise<void> {
  await disk.deleteAll(stagedChunksPrefix(key))
}

/** The objects `keys` read one after the other, as one sequence of buffers. */
async function* concatObjects(disk: StorageDisk, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) {
    const stream = await disk.getStream(key)
    for await (const chunk of stream) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
  }
}

/** Cuts a sequence of buffers into consecutive slices of exact lengths, streaming. */
class ByteReader {
  #iterator: AsyncIterator<Buffer>
  #rest?: Buffer

  constructor(source: AsyncIterable<Buffer>) {
    this.#iterator = source[Symbol.asyncIterator]()
  }

  /** The next `length` bytes; throws when the source ends first. */
  async *take(length: number): AsyncGenerator<Buffer> {
    let remaining = length
    while (remaining > 0) {
      let chunk = this.#rest
      this.#rest = undefined
      if (!chunk) {
        const next = await this.#iterator.next()
        if (next.done)
          throw new Error(`The staged chunks hold ${remaining} bytes less than declared`)
        chunk = next.value
      }
      if (chunk.length === 0) continue
      if (chunk.length > remaining) {
        this.#rest = chunk.subarray(remaining)
        chunk = chunk.subarray(0, remaining)
      }
      remaining -= chunk.length
      yield chunk
    }
  }

  /** Throws when the source holds more bytes. */
  async assertEnd(): Promise<void> {
    if (this.#rest && this.#rest.length > 0)
      throw new Error('The staged chunks hold more bytes than declared')
    for (;;) {
      const next = await this.#iterator.next()
      if (next.done) return
      if (next.value.length > 0) throw new Error('The staged chunks hold more bytes than declared')
    }
  }

  /** Stops reading the source (closes the current object stream). */
  async close(): Promise<void> {
    await this.#iterator.return?.(undefined)
  }
}

/** A byte stream (not object mode) over `source`. */
function byteStream(source: AsyncIterable<Buffer>): Readable {
  return Readable.from(source, { objectMode: false })
}

/**
 * The `staged` strategy's completion: streams the staged chunks of `key`
 * (sizes in chunk order, as recorded in `upload_chunks.size`) into the
 * object `key`, then deletes them. On a disk with multipart uploads and more
 * than `minPartSize` bytes, the object is uploaded in parts of
 * `max(minPartSize, total / maxParts)` bytes, one after the other; otherwise
 * with one `putStream` of known length. Nothing is buffered beyond the
 * streams' own buffers. Rejects (aborting the multipart upload and keeping
 * the staged chunks, so it can be retried) when a chunk is missing
 * (`E_STORAGE_NOT_FOUND`), a chunk's size differs from `chunkSizes` (checked
 * first, one metadata read per chunk), or the disk fails.
 */
export async function assembleStagedChunks(
  disk: StorageDisk,
  key: string,
  chunkSizes: readonly number[],
  options: WriteOptions = {}
): Promise<void> {
  const target = normalizeStorageKey(key)
  if (chunkSizes.some((size) => !Number.isSafeInteger(size) || size < 0)) {
    throw new RangeError('chunk sizes must be non-negative integers')
  }
  const total = chunkSizes.reduce((sum, size) => sum + size, 0)
  const keys = chunkSizes.map((_, index) => stagedChunkKey(target, index))
  for (const [index, stagedKey] of keys.entries()) {
    const { contentLength } = await disk.getMetaData(stagedKey)
    if (contentLength !== chunkSizes[index]) {
      throw new Error(
        `Staged chunk ${index} of "${target}" holds ${contentLength} bytes, not ${chunkSizes[index]}`
      )
    }
  }
  const reader = new ByteReader(concatObjects(disk, keys))
  const limits = multipartLimitsOf(disk)

  try {
    if (!limits || total <= limits.minPartSize) {
      await disk.putStream(target, byteStream(reader.take(total)), {
        ...options,
        contentLength: total,
      })
      await reader.assertEnd()
    } else {
      const partSize = Math.min(
        limits.maxPartSize,
        Math.max(limits.minPartSize, Math.ceil(total / limits.maxParts))
      )
      const uploadId = await disk.createMultipartUpload(target, options)
      try {
        const parts: UploadedPart[] = []
        for (let offset = 0, partNumber = 1; offset < total; offset += partSize, partNumber++) {
          const length = Math.min(partSize, total - offset)
          parts.push(
            await disk.uploadPart(target, uploadId, partNumber, byteStream(reader.take(length)), {
              contentLength: length,
            })
          )
        }
        await reader.assertEnd()
        await disk.completeMultipartUpload(target, uploadId, parts)
      } catch (error) {
        await disk.abortMultipartUpload(target, uploadId).catch(() => {})
        throw error
      }
    }
  } finally {
    await reader.close()
  }
  await deleteStagedChunks(disk, target)
}
