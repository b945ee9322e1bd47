/**
 * The storage facade. Every call of the application goes through it: it
 * normalises the key once (refusing traversal and forbidden characters),
 * calls the driver and rethrows any driver failure as a coded
 * `E_STORAGE_*` error with the original error as `cause`.
 */
import type { Readable } from 'node:stream'
import { Disk, type DriveFile, KeyNormalizer } from 'flydrive'
import type {
  DriverContract,
  ObjectMetaData,
  ObjectVisibility,
  SignedURLOptions,
  WriteOptions,
} from 'flydrive/types'
import type { DriveDirectory } from 'flydrive'
import {
  capabilitiesOf,
  supportsMultipartListing,
  supportsMultipartUpload,
  supportsRandomAccessWrite,
  supportsRangeRead,
  type ByteRangeRequest,
  type PendingMultipartUploadPage,
  type StorageCapability,
  type UploadedPart,
} from './capabilities.js'
import {
  E_STORAGE_DELETE_FAILED,
  E_STORAGE_INVALID_KEY,
  E_STORAGE_NOT_FOUND,
  E_STORAGE_OPERATION_FAILED,
  E_STORAGE_READ_FAILED,
  E_STORAGE_UNSUPPORTED,
  E_STORAGE_WRITE_FAILED,
} from './errors.js'

const normalizer = new KeyNormalizer()

/**
 * Normalises a storage key the way every disk stores it (unix slashes, no
 * leading/trailing slash, collapsed whitespace). Throws
 * `E_STORAGE_INVALID_KEY` for an empty key, characters outside
 * `[A-Za-z0-9-_!/. ]` or a `..` segment (path traversal).
 */
export function normalizeStorageKey(key: string): string {
  try {
    return normalizer.normalize(key)
  } catch (error) {
    throw new E_STORAGE_INVALID_KEY([key], { cause: error })
  }
}

/**
 * A named disk: flydrive's `Disk` API plus the optional capabilities, with
 * Tern's key rules and coded errors. Obtain one with `storage.use(name)`.
 */
export class StorageDisk extends Disk {
  /**
   * @param name the disk name it was registered under (used in error messages)
   * @param driver the driver doing the work
   */
  constructor(
    readonly name: string,
    driver: DriverContract
  ) {
    super(driver)
  }

  /** Runs a driver call and maps its failure to the given coded error. */
  async #call<T>(fn: () => Promise<T>, fail: (cause: unknown) => Error): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      throw fail(error)
    }
  }

  /** Read failure: `E_STORAGE_NOT_FOUND` when the object is absent, else `E_STORAGE_READ_FAILED`. */
  async #read<T>(key: string, fn: (normalized: string) => Promise<T>): Promise<T> {
    const normalized = normalizeStorageKey(key)
    try {
      return await fn(normalized)
    } catch (error) {
      const exists = await this.driver.exists(normalized).catch(() => true)
      throw exists
        ? new E_STORAGE_READ_FAILED([this.name, normalized], { cause: error })
        : new E_STORAGE_NOT_FOUND([this.name, normalized], { cause: error })
    }
  }

  #writeFailed(key: string) {
    return (cause: unknown) => new E_STORAGE_WRITE_FAILED([this.name, key], { cause })
  }

  #operationFailed(operation: string, key: string) {
    return (cause: unknown) =>
      new E_STORAGE_OPERATION_FAILED([this.name, operation, key], { cause })
  }

  /** The optional capabilities of this disk's driver. */
  capabilities(): StorageCapability[] {
    return capabilitiesOf(this.driver)
  }

  /** True when the driver implements `capability`. */
  supports(capability: StorageCapability): boolean {
    return this.capabilities().includes(capability)
  }

  /** A lazy `DriveFile` for the normalised key. Throws `E_STORAGE_INVALID_KEY`. */
  file(key: string): DriveFile {
    return super.file(normalizeStorageKey(key))
  }

  /** Whether the object exists (never throws for a missing one). Throws `E_STORAGE_INVALID_KEY` / `E_STORAGE_OPERATION_FAILED`. */
  async exists(key: string): Promise<boolean> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.exists(normalized),
      this.#operationFailed('check', normalized)
    )
  }

  /** The object as UTF-8 text. Throws `E_STORAGE_NOT_FOUND` when missing, else `E_STORAGE_READ_FAILED`. */
  async get(key: string): Promise<string> {
    return this.#read(key, (k) => this.driver.get(k))
  }

  /**
   * The object as a stream (nothing is buffered). Throws `E_STORAGE_NOT_FOUND`
   * when missing: the contract requires drivers to reject, not to emit the
   * error later on the stream.
   */
  async getStream(key: string): Promise<Readable> {
    return this.#read(key, (k) => this.driver.getStream(k))
  }

  /**
   * Bytes `range.start..range.end` (inclusive) of the object as a stream
   * (see `RangeReadCapable`; an `end` past the last byte stops at it).
   * Throws `E_STORAGE_UNSUPPORTED` when the driver lacks the capability,
   * `E_STORAGE_NOT_FOUND` when the object is missing, else
   * `E_STORAGE_READ_FAILED` (also for a range that is not two integers
   * `0 <= start <= end`, or a `start` outside the object).
   */
  async getStreamRange(key: string, range: ByteRangeRequest): Promise<Readable> {
    const driver = this.driver
    if (!supportsRangeRead(driver)) {
      normalizeStorageKey(key)
      throw new E_STORAGE_UNSUPPORTED([this.name, 'range reads'])
    }
    return this.#read(key, async (k) => {
      const { start, end } = range
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
        throw new RangeError(`range must be integers 0 <= start <= end (got ${start}-${end})`)
      }
      return driver.getStreamRange(k, { start, end })
    })
  }

  /** The object as bytes. Throws `E_STORAGE_NOT_FOUND` when missing, else `E_STORAGE_READ_FAILED`. */
  async getBytes(key: string): Promise<Uint8Array> {
    return this.#read(key, (k) => this.driver.getBytes(k))
  }

  /** @deprecated use `getBytes`. */
  async getArrayBuffer(key: string): Promise<Uint8Array> {
    return this.getBytes(key)
  }

  /** Size, type, etag and date of the object. Throws `E_STORAGE_NOT_FOUND` when missing. */
  async getMetaData(key: string): Promise<ObjectMetaData> {
    return this.#read(key, (k) => this.driver.getMetaData(k))
  }

  /** The object's visibility. Throws `E_STORAGE_OPERATION_FAILED`. */
  async getVisibility(key: string): Promise<ObjectVisibility> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.getVisibility(normalized),
      this.#operationFailed('read visibility of', normalized)
    )
  }

  /** A public URL. Throws `E_STORAGE_OPERATION_FAILED` when the driver has none. */
  async getUrl(key: string): Promise<string> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.getUrl(normalized),
      this.#operationFailed('build a URL for', normalized)
    )
  }

  /** A temporary URL. Throws `E_STORAGE_OPERATION_FAILED` when the driver cannot sign. */
  async getSignedUrl(key: string, options?: SignedURLOptions): Promise<string> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.getSignedUrl(normalized, options),
      this.#operationFailed('sign a URL for', normalized)
    )
  }

  /** A temporary upload URL. Throws `E_STORAGE_OPERATION_FAILED` when the driver cannot sign. */
  async getSignedUploadUrl(key: string, options?: SignedURLOptions): Promise<string> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.getSignedUploadUrl(normalized, options),
      this.#operationFailed('sign an upload URL for', normalized)
    )
  }

  /** Sets the visibility. Throws `E_STORAGE_WRITE_FAILED`. */
  async setVisibility(key: string, visibility: ObjectVisibility): Promise<void> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.setVisibility(normalized, visibility),
      this.#writeFailed(normalized)
    )
  }

  /** Creates or replaces the object. Throws `E_STORAGE_WRITE_FAILED`. */
  async put(key: string, contents: string | Uint8Array, options?: WriteOptions): Promise<void> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.put(normalized, contents, options),
      this.#writeFailed(normalized)
    )
  }

  /** Creates or replaces the object from a stream (not buffered). Throws `E_STORAGE_WRITE_FAILED`. */
  async putStream(key: string, contents: Readable, options?: WriteOptions): Promise<void> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.putStream(normalized, contents, options),
      this.#writeFailed(normalized)
    )
  }

  /** Copies inside the disk. Throws `E_STORAGE_WRITE_FAILED` (naming the destination). */
  async copy(source: string, destination: string, options?: WriteOptions): Promise<void> {
    const [from, to] = [normalizeStorageKey(source), normalizeStorageKey(destination)]
    return this.#call(() => this.driver.copy(from, to, options), this.#writeFailed(to))
  }

  /** Moves inside the disk. Throws `E_STORAGE_WRITE_FAILED` (naming the destination). */
  async move(source: string, destination: string, options?: WriteOptions): Promise<void> {
    const [from, to] = [normalizeStorageKey(source), normalizeStorageKey(destination)]
    return this.#call(() => this.driver.move(from, to, options), this.#writeFailed(to))
  }

  /** Copies a local file into the disk. Throws `E_STORAGE_WRITE_FAILED`. */
  async copyFromFs(
    source: string | URL,
    destination: string,
    options?: WriteOptions
  ): Promise<void> {
    const to = normalizeStorageKey(destination)
    return this.#call(() => super.copyFromFs(source, to, options), this.#writeFailed(to))
  }

  /** Moves a local file into the disk. Throws `E_STORAGE_WRITE_FAILED`. */
  async moveFromFs(
    source: string | URL,
    destination: string,
    options?: WriteOptions
  ): Promise<void> {
    const to = normalizeStorageKey(destination)
    return this.#call(() => super.moveFromFs(source, to, options), this.#writeFailed(to))
  }

  /** Deletes the object; a missing object is not an error. Throws `E_STORAGE_DELETE_FAILED`. */
  async delete(key: string): Promise<void> {
    const normalized = normalizeStorageKey(key)
    return this.#call(
      () => this.driver.delete(normalized),
      (cause) => new E_STORAGE_DELETE_FAILED([this.name, normalized], { cause })
    )
  }

  /** Deletes every object under `prefix` (the whole disk when omitted). Throws `E_STORAGE_DELETE_FAILED`. */
  async deleteAll(prefix?: string): Promise<void> {
    const normalized = prefix && prefix !== '/' ? normalizeStorageKey(prefix) : '/'
    return this.#call(
      () => this.driver.deleteAll(normalized),
      (cause) => new E_STORAGE_DELETE_FAILED([this.name, normalized], { cause })
    )
  }

  /** Lists objects under `prefix`. Throws `E_STORAGE_OPERATION_FAILED`. */
  async listAll(
    prefix?: string,
    options?: { recursive?: boolean; paginationToken?: string }
  ): Promise<{ paginationToken?: string; objects: Iterable<DriveFile | DriveDirectory> }> {
    const normalized = prefix && prefix !== '/' ? normalizeStorageKey(prefix) : '/'
    return this.#call(
      () => this.driver.listAll(normalized, options),
      this.#operationFailed('list', normalized)
    )
  }

  /**
   * Writes a chunk at byte `offset` (see `RandomAccessWriteCapable`).
   * Throws `E_STORAGE_UNSUPPORTED` when the driver lacks the capability,
   * `E_STORAGE_WRITE_FAILED` when the write fails or `offset` is not a
   * non-negative integer.
   */
  async writeAt(key: string, offset: number, contents: Uint8Array | Readable): Promise<void> {
    const normalized = normalizeStorageKey(key)
    const driver = this.driver
    if (!supportsRandomAccessWrite(driver)) {
      throw new E_STORAGE_UNSUPPORTED([this.name, 'random-access writes'])
    }
    return this.#call(async () => {
      if (!Number.isSafeInteger(offset) || offset < 0) {
        throw new RangeError(`offset must be a non-negative integer (got ${offset})`)
      }
      return driver.writeAt(normalized, offset, contents)
    }, this.#writeFailed(normalized))
  }

  /**
   * Makes the object `key` durable where the driver can be asked to (the
   * local disk's `sync`: its data and folder entry flushed); object stores
   * are durable once they acknowledge a write, so this does nothing there.
   */
  async sync(key: string): Promise<void> {
    const normalized = normalizeStorageKey(key)
    const driver = this.driver as Partial<{ sync(key: string): Promise<void> }>
    if (typeof driver.sync !== 'function') return
    return this.#call(() => driver.sync!(normalized), this.#writeFailed(normalized))
  }

  #multipart() {
    const driver = this.driver
    if (!supportsMultipartUpload(driver)) {
      throw new E_STORAGE_UNSUPPORTED([this.name, 'multipart uploads'])
    }
    return driver
  }

  /** Starts a multipart upload; resolves to its id. Throws `E_STORAGE_UNSUPPORTED` / `E_STORAGE_WRITE_FAILED`. */
  async createMultipartUpload(key: string, options?: WriteOptions): Promise<string> {
    const normalized = normalizeStorageKey(key)
    const driver = this.#multipart()
    return this.#call(
      () => driver.createMultipartUpload(normalized, options),
      this.#writeFailed(normalized)
    )
  }

  /** Uploads one part; resolves to its etag. Throws `E_STORAGE_UNSUPPORTED` / `E_STORAGE_WRITE_FAILED`. */
  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    contents: Uint8Array | Readable,
    options?: { contentLength?: number }
  ): Promise<UploadedPart> {
    const normalized = normalizeStorageKey(key)
    const driver = this.#multipart()
    return this.#call(
      () => driver.uploadPart(normalized, uploadId, partNumber, contents, options),
      this.#writeFailed(normalized)
    )
  }

  /** Assembles the object from its parts. Throws `E_STORAGE_UNSUPPORTED` / `E_STORAGE_WRITE_FAILED`. */
  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: UploadedPart[]
  ): Promise<void> {
    const normalized = normalizeStorageKey(key)
    const driver = this.#multipart()
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber)
    return this.#call(
      () => driver.completeMultipartUpload(normalized, uploadId, sorted),
      this.#writeFailed(normalized)
    )
  }

  /**
   * One page of the unfinished multipart uploads under `prefix` (see
   * `MultipartListingCapable`). Throws `E_STORAGE_UNSUPPORTED` when the
   * driver cannot list them, `E_STORAGE_OPERATION_FAILED` when listing fails.
   */
  async listMultipartUploads(
    prefix?: string,
    options?: { paginationToken?: string; maxResults?: number }
  ): Promise<PendingMultipartUploadPage> {
    const normalized = prefix && prefix !== '/' ? normalizeStorageKey(prefix) : '/'
    const driver = this.driver
    if (!supportsMultipartListing(driver)) {
      throw new E_STORAGE_UNSUPPORTED([this.name, 'listing multipart uploads'])
    }
    return this.#call(
      () => driver.listMultipartUploads(normalized, options),
      this.#operationFailed('list the multipart uploads of', normalized)
    )
  }

  /** Drops an unfinished multipart upload (unknown ids are fine). Throws `E_STORAGE_UNSUPPORTED` / `E_STORAGE_DELETE_FAILED`. */
  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    const normalized = normalizeStorageKey(key)
    const driver = this.#multipart()
    return this.#call(
      () => driver.abortMultipartUpload(normalized, uploadId),
      (cause) => new E_STORAGE_DELETE_FAILED([this.name, normalized], { cause })
    )
  }
}
