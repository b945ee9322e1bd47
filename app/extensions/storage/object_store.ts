/**
 * What every driver over a bucket-style object store (S3, Cloud Storage, ...)
 * does the same way, so a new one writes only its store's calls:
 * - `BucketDriver`: the plain operations, delegated to flydrive's driver for
 *   the store with the disk's keys (the subclass adds streams, copies,
 *   prefix deletes and the capabilities);
 * - `BucketPrefix`: the disk's keys inside the bucket (`bucketPath`),
 *   checked again (a second line of defence behind the facade) and stripped
 *   from what listings return;
 * - `checkPart`: the part number and byte length an `uploadPart` needs;
 * - `sortParts`: the parts of a completion in part-number order;
 * - `objectWriteOptions`: the write options a stored object keeps;
 * - `endpointRule`, `bucketPathRule`, `bucketPathOf`: the settings every
 *   such store has (its endpoint URL, the disk's folder in the bucket).
 * Plugins import it as `#extensions/storage/object_store`.
 */
import type { Readable } from 'node:stream'
import { DriveDirectory, DriveFile } from 'flydrive'
import type {
  DriverContract,
  ObjectMetaData,
  ObjectVisibility,
  SignedURLOptions,
  WriteOptions,
} from 'flydrive/types'
import type { ConfigValue } from '#extensions/config/types'
import type { MultipartLimits, UploadedPart } from './capabilities.js'
import { normalizeStorageKey } from './storage_disk.js'

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
    throw invalidPart(
      `Part number must be an integer from 1 to ${limits.maxParts} (got ${partNumber})`
    )
  }
  const length = contents instanceof Uint8Array ? contents.length : contentLength
  if (length === undefined || !Number.isSafeInteger(length) || length < 0) {
    throw invalidPart(
      'uploadPart needs options.contentLength (a non-negative integer) for a stream body'
    )
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

/** What `BucketDriver` needs of a connection: flydrive's driver for the store and the disk's keys. */
export interface BucketConnection {
  /** flydrive's own driver for the bucket (`flydrive/drivers/s3`, `flydrive/drivers/gcs`, ...). */
  drive: DriverContract
  /** The disk's keys inside the bucket. */
  prefix: BucketPrefix
}

/**
 * The plain operations of a bucket driver: each resolves the connection for
 * the current settings (`run`) and calls flydrive's driver with the disk's
 * key. Objects are always private (Tern serves every file itself; no ACLs).
 * A subclass implements `run`, the rest of `DriverContract` (`getStream`,
 * `putStream`, `copy`, `deleteAll`, `bucket`) and its capabilities.
 */
export abstract class BucketDriver<Connection extends BucketConnection> implements DriverContract {
  /** Runs `fn` with the connection for the current settings (rebuilt when they changed). */
  protected abstract run<T>(fn: (connection: Connection) => Promise<T>): Promise<T>

  /** A stream of the contents; rejects for a missing object (before resolving). */
  abstract getStream(key: string): Promise<Readable>

  /** Creates or replaces the object from a stream. */
  abstract putStream(key: string, contents: Readable, options?: WriteOptions): Promise<void>

  /** Copies inside the bucket (server side). */
  abstract copy(source: string, destination: string, options?: WriteOptions): Promise<void>

  /** Deletes the object `prefix` and every object under `prefix/` (`/`: the whole disk), not `prefix-other`. */
  abstract deleteAll(prefix: string): Promise<void>

  /** The same driver on another bucket. */
  abstract bucket(bucket: string): DriverContract

  /** Whether the object exists (false for a missing one). */
  async exists(key: string): Promise<boolean> {
    return this.run((c) => c.drive.exists(c.prefix.key(key)))
  }

  /** UTF-8 contents. Rejects for a missing object. */
  async get(key: string): Promise<string> {
    return this.run((c) => c.drive.get(c.prefix.key(key)))
  }

  /** The contents as bytes. Rejects for a missing object. */
  async getBytes(key: string): Promise<Uint8Array> {
    return this.run((c) => c.drive.getBytes(c.prefix.key(key)))
  }

  /** @deprecated use `getBytes` */
  async getArrayBuffer(key: string): Promise<Uint8Array> {
    return this.getBytes(key)
  }

  /** Length, type, etag and date. Rejects for a missing object. */
  async getMetaData(key: string): Promise<ObjectMetaData> {
    return this.run((c) => c.drive.getMetaData(c.prefix.key(key)))
  }

  /** Always `private`. */
  async getVisibility(_key: string): Promise<ObjectVisibility> {
    return 'private'
  }

  /** No-op: objects are always private. */
  async setVisibility(_key: string, _visibility: ObjectVisibility): Promise<void> {}

  /** The object's URL on the store (not readable by everyone: objects are private). */
  async getUrl(key: string): Promise<string> {
    return this.run((c) => c.drive.getUrl(c.prefix.key(key)))
  }

  /** A signed download URL. */
  async getSignedUrl(key: string, options?: SignedURLOptions): Promise<string> {
    return this.run((c) => c.drive.getSignedUrl(c.prefix.key(key), options))
  }

  /** A signed upload URL. */
  async getSignedUploadUrl(key: string, options?: SignedURLOptions): Promise<string> {
    return this.run((c) => c.drive.getSignedUploadUrl(c.prefix.key(key), options))
  }

  /** Creates or replaces the object (one request). */
  async put(key: string, contents: string | Uint8Array, options?: WriteOptions): Promise<void> {
    return this.run((c) => c.drive.put(c.prefix.key(key), contents, options))
  }

  /** Copies then deletes the source. */
  async move(source: string, destination: string, options?: WriteOptions): Promise<void> {
    await this.copy(source, destination, options)
    await this.delete(source)
  }

  /** Deletes the object; a missing one is fine. */
  async delete(key: string): Promise<void> {
    return this.run((c) => c.drive.delete(c.prefix.key(key)))
  }

  /**
   * Lists the files (and, unless recursive, the first-level folders) under
   * `prefix`, with keys relative to the disk (without the bucket path).
   */
  async listAll(
    prefix: string,
    options?: { recursive?: boolean; paginationToken?: string; maxResults?: number }
  ): Promise<ListingPage> {
    return this.run(async (c) => {
      const folder = c.prefix.folder(prefix)
      return c.prefix.strippedListing(await c.drive.listAll(folder || '/', options), this)
    })
  }
}

/** A config `validate` rule: an endpoint is empty (the store's default) or an http(s) URL with a host; else `message`. */
export function endpointRule(message: string) {
  return (value: ConfigValue): string | undefined => {
    const text = String(value).trim()
    if (text === '') return undefined
    try {
      const url = new URL(text)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return undefined
    } catch {}
    return message
  }
}

/** The bucket path of a setting, normalised (`''`: the bucket root). Throws `E_STORAGE_INVALID_KEY` (see `bucketPathRule`). */
export function bucketPathOf(value: ConfigValue): string {
  const text = String(value).trim()
  return text === '' || text === '/' ? '' : normalizeStorageKey(text)
}

/** A config `validate` rule: a bucket path is empty or `/` (the bucket root), or a key the facade accepts; else `message`. */
export function bucketPathRule(message: string) {
  return (value: ConfigValue): string | undefined => {
    const text = String(value).trim()
    if (text === '' || text === '/') return undefined
    try {
      normalizeStorageKey(text)
      return undefined
    } catch {
      return message
    }
  }
}
