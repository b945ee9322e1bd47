/**
 * Optional storage-driver features. A driver advertises one by implementing
 * its interface; callers test with the type guard instead of probing
 * optional methods. Always go through the facade (`StorageDisk`), which
 * normalises keys before calling these methods.
 */
import type { Readable } from 'node:stream'
import type { DriverContract, WriteOptions } from 'flydrive/types'

/**
 * Writes a chunk at a byte offset of an object, so the chunks of one file can
 * arrive in any order (and in parallel) and each is written in its place.
 */
export interface RandomAccessWriteCapable {
  /**
   * Writes `contents` into the object `key` starting at byte `offset`.
   * Creates the object (and its parent folders) when missing; never truncates
   * it and leaves bytes outside the written range untouched (a gap before
   * `offset` reads as zero bytes until filled). Streams are written as they
   * arrive, never buffered whole. Concurrent writes to distinct ranges are
   * safe. Rejects when the write fails or `offset` is negative.
   */
  writeAt(key: string, offset: number, contents: Uint8Array | Readable): Promise<void>
}

/** One uploaded part of a multipart upload, as `completeMultipartUpload` needs it. */
export interface UploadedPart {
  /** 1-based part number. */
  partNumber: number
  /** The identifier the store returned for the part. */
  etag: string
}

/** Size rules of a store's multipart uploads (`DEFAULT_MULTIPART_LIMITS`: Amazon S3's). */
export interface MultipartLimits {
  /** Smallest size of every part but the last, in bytes. */
  minPartSize: number
  /** Largest size of one part, in bytes. */
  maxPartSize: number
  /** Highest part number (parts are numbered 1..maxParts). */
  maxParts: number
}

/** Amazon S3's limits: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000 parts. */
export const DEFAULT_MULTIPART_LIMITS: Readonly<MultipartLimits> = Object.freeze({
  minPartSize: 5 * 1024 * 1024,
  maxPartSize: 5 * 1024 * 1024 * 1024,
  maxParts: 10_000,
})

/**
 * S3-style multipart upload: the object is assembled from numbered parts when
 * the upload completes. The upload id must be persisted by the caller (in the
 * database) because another instance may receive the next part. Every part
 * but the last must respect the store's `multipartLimits` (Amazon S3 rejects
 * the completion with EntityTooSmall otherwise): use `chunkedUploadStrategy`
 * (`chunked_upload.ts`) to pick how chunks are stored.
 */
export interface MultipartUploadCapable {
  /** The store's part-size rules; `DEFAULT_MULTIPART_LIMITS` when absent. */
  readonly multipartLimits?: MultipartLimits
  /** Starts an upload for `key`; resolves to the upload id. Rejects when the store refuses. */
  createMultipartUpload(key: string, options?: WriteOptions): Promise<string>
  /**
   * Uploads part `partNumber` (1-based; parts may arrive in any order).
   * Resolves to the part's etag. Rejects for an unknown upload id.
   */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    contents: Uint8Array | Readable,
    options?: { contentLength?: number }
  ): Promise<UploadedPart>
  /** Assembles the object from `parts` (any order; sorted by number). Rejects for an unknown upload id. */
  completeMultipartUpload(key: string, uploadId: string, parts: UploadedPart[]): Promise<void>
  /** Drops an unfinished upload and its parts. Must not throw when the upload does not exist. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>
}

/** An inclusive byte range of an object: bytes `start` to `end`, both counted from 0. */
export interface ByteRangeRequest {
  /** First byte (>= 0). */
  start: number
  /** Last byte, inclusive (>= `start`); past the object's end reads to the end. */
  end: number
}

/**
 * Reads a byte range of an object without reading the bytes before it
 * (HTTP Range downloads, video seeking, resumed downloads).
 */
export interface RangeReadCapable {
  /**
   * A stream of bytes `start..end` (inclusive) of `key`; an `end` past the
   * object's last byte stops at it. Rejects (before resolving, not on the
   * stream) when the object is missing or `start` is not inside it.
   * Nothing is buffered beyond the stream's own buffer.
   */
  getStreamRange(key: string, range: ByteRangeRequest): Promise<Readable>
}

/** One unfinished multipart upload, as `listMultipartUploads` reports it. */
export interface PendingMultipartUpload {
  /** The object key the upload will create (relative to the disk root). */
  key: string
  /** The store's upload id. */
  uploadId: string
  /** When the upload was started. */
  initiatedAt: Date
}

/** One page of `listMultipartUploads`. */
export interface PendingMultipartUploadPage {
  uploads: PendingMultipartUpload[]
  /** Pass it back to get the next page; absent on the last page. */
  paginationToken?: string
}

/**
 * Lists the unfinished multipart uploads of a store, so uploads whose
 * database record is gone (a crash between starting an upload and
 * recording it) can be found and aborted.
 */
export interface MultipartListingCapable {
  /**
   * The unfinished uploads of keys under the folder `prefix` (`shares`
   * covers `shares/a/b`, not `shares-old/x`; `/`: every upload of the disk),
   * one page at a time (`maxResults` per page at most, 1000 by default), in
   * key order. Keys are relative to the disk root, like every other key of
   * the disk.
   */
  listMultipartUploads(
    prefix: string,
    options?: { paginationToken?: string; maxResults?: number }
  ): Promise<PendingMultipartUploadPage>
}

/** Names of the optional capabilities, as `StorageDisk.capabilities()` reports them. */
export type StorageCapability =
  'randomAccessWrite' | 'multipartUpload' | 'rangeRead' | 'multipartListing'

/** True when `driver` can write a chunk at a byte offset (`writeAt`). */
export function supportsRandomAccessWrite(
  driver: DriverContract
): driver is DriverContract & RandomAccessWriteCapable {
  return typeof (driver as Partial<RandomAccessWriteCapable>).writeAt === 'function'
}

/** True when `driver` implements every method of the multipart-upload capability. */
export function supportsMultipartUpload(
  driver: DriverContract
): driver is DriverContract & MultipartUploadCapable {
  const candidate = driver as Partial<MultipartUploadCapable>
  return (
    typeof candidate.createMultipartUpload === 'function' &&
    typeof candidate.uploadPart === 'function' &&
    typeof candidate.completeMultipartUpload === 'function' &&
    typeof candidate.abortMultipartUpload === 'function'
  )
}

/** True when `driver` can stream a byte range of an object (`getStreamRange`). */
export function supportsRangeRead(
  driver: DriverContract
): driver is DriverContract & RangeReadCapable {
  return typeof (driver as Partial<RangeReadCapable>).getStreamRange === 'function'
}

/** True when `driver` can list its unfinished multipart uploads (`listMultipartUploads`). */
export function supportsMultipartListing(
  driver: DriverContract
): driver is DriverContract & MultipartListingCapable {
  return typeof (driver as Partial<MultipartListingCapable>).listMultipartUploads === 'function'
}

/** Lists the optional capabilities `driver` implements. */
export function capabilitiesOf(driver: DriverContract): StorageCapability[] {
  const capabilities: StorageCapability[] = []
  if (supportsRandomAccessWrite(driver)) capabilities.push('randomAccessWrite')
  if (supportsMultipartUpload(driver)) capabilities.push('multipartUpload')
  if (supportsRangeRead(driver)) capabilities.push('rangeRead')
  if (supportsMultipartListing(driver)) capabilities.push('multipartListing')
  return capabilities
}
