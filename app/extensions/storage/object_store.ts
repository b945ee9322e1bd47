/**
 * What every driver over a bucket-style object store (S3, Cloud Storage, ...)
 * keeps track of the same way, so a new one writes only its store's calls:
 * - `BucketPrefix`: the disk's keys inside the bucket (`bucketPath`),
 *   checked again (a second line of defence behind the facade) and stripped
 *   from what listings return;
 * - `checkPart`: the part number and byte length an `uploadPart` needs;
 * - `sortParts`: the parts of a completion in part-number order;
 * - `objectWriteOptions`: the write options a stored object keeps.
 * Plugins import it as `#extensions/storage/object_store`.
 */
import type { Readable } from 'node:stream'
import { DriveDirectory, DriveFile } from 'flydrive'
import type { DriverContract, WriteOptions } from 'flydrive/types'
import type { MultipartLimits, UploadedPart } from './capabilities.js'

/** Builds the driver's own error (with its code) from a message. */
export type DriverErrorFactory = (message: string) => Error

/** A flydrive listing page. */
export interface ListingPage {
  paginationToken?: string
  objects: Iterable<DriveFile | DriveDirectory>
}

/**
 * The keys of one disk inside a bucket: `bucketPath/<key>`, or `<key>` at the
 * bucket root. Refuses (with `invalidKey`) an empty key, a leading slash,
 * empty, `.` or `..` segments, backslashes, NUL and line breaks, so the
 * bucket path can never be escaped.
 */
export class BucketPrefix {
  /** `bucketPath/`, or `''` for the bucket root. */
  readonly root: string

  /**
   * @param bucketPath the disk's folder in the bucket, without slashes around it (`''`: the bucket root)
   * @param invalidKey builds the error thrown for a refused key
   */
  constructor(
    bucketPath: string,
    private invalidKey: DriverErrorFactory
  ) {
    this.root = bucketPath ? `${bucketPath}/` : ''
  }

  /** Returns `key` when the disk may use it; throws `invalidKey` otherwise. */
  check(key: string): string {
    if (
      typeof key !== 'string' ||
      key === '' ||
      key.startsWith('/') ||
      /[\\\0\r\n]/.test(key) ||
      key.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')
    ) {
      throw this.invalidKey(`Invalid key "${key}"`)
    }
    return key
  }

  /** The object name of disk key `key` (checked). */
  key(key: string): string {
    return `${this.root}${this.check(key)}`
  }

  /** The listing prefix of the folder `prefix` (`/` or `''`: the whole disk); ends with `/` unless the bucket root. */
  folder(prefix: string): string {
    return prefix === '/' || prefix === '' ? this.root : `${this.key(prefix)}/`
  }

  /** The disk key of an object name (the bucket path stripped). */
  strip(name: string): string {
    return this.root && name.startsWith(this.root) ? name.slice(this.root.length) : name
  }

  /**
   * A listing page of flydrive's own driver with disk keys: the bucket path
   * stripped from every file and folder, files bound to `driver` (so their
   * later reads go through the prefix again).
   */
  async strippedListing(page: ListingPage, driver: DriverContract): Promise<ListingPage> {
    const objects: Array<DriveFile | DriveDirectory> = []
    for (const object of page.objects) {
      objects.push(
        object instanceof DriveDirectory
          ? new DriveDirectory(this.strip(object.prefix))
          : new DriveFile(this.strip(object.key), driver, await object.getMetaData())
      )
    }
    return { paginationToken: page.paginationToken, objects }
  }
}

/**
 * Checks the part `uploadPart` received: `partNumber` an integer from 1 to
 * `limits.maxParts`, and a known, non-negative length (a byte array's own,
 * or `contentLength` for a stream). Returns the length; throws `invalidPart`.
 */
export function checkPart(
  limits: MultipartLimits,
  partNumber: number,
  contents: Uint8Array | Readable,
  contentLength: number | undefined,
  invalidPart: DriverErrorFactory
): number {
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > limits.maxParts) {
    throw invalidPart(`Part number must be an integer from 1 to ${limits.maxParts} (got ${partNumber})`)
  }
  const length = contents instanceof Uint8Array ? contents.length : contentLength
  if (length === undefined || !Number.isSafeInteger(length) || length < 0) {
    throw invalidPart('uploadPart needs options.contentLength (a non-negative integer) for a stream body')
  }
  return length
}

/** The parts of a completion in part-number order (a copy; the argument is left as it is). */
export function sortParts(parts: UploadedPart[]): UploadedPart[] {
  return [...parts].sort((a, b) => a.partNumber - b.partNumber)
}

/** The write options a stored object keeps (its headers when served). */
export interface ObjectWriteOptions {
  contentType?: string
  contentDisposition?: string
  contentEncoding?: string
  contentLanguage?: string
  cacheControl?: string
}

/** The options of `options` an object keeps (the others, such as `contentLength`, are per request). */
export function objectWriteOptions(options?: WriteOptions): ObjectWriteOptions {
  return {
    contentType: options?.contentType,
    contentDisposition: options?.contentDisposition,
    contentEncoding: options?.contentEncoding,
    contentLanguage: options?.contentLanguage,
    cacheControl: options?.cacheControl,
  }
}
