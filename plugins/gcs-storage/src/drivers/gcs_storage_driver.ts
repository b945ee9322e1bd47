/**
 * The Google Cloud Storage driver: flydrive's GCS driver
 * (`flydrive/drivers/gcs`) for the plain operations (through `BucketDriver`,
 * #extensions/storage/object_store), plus a key prefix
 * (`gcs.bucketPath`), streams that reject before resolving for a missing
 * object, ranged reads, prefix-exact `deleteAll`/`listAll`, and multipart
 * uploads built on Cloud Storage's compose: each part is its own object and
 * the completion composes them (32 sources per call, in rounds) into the
 * final object. Settings are read before every operation and the client is
 * rebuilt when they changed, so an admin's change applies without a restart.
 *
 * Multipart layout, under the disk root (`gcs.bucketPath`):
 * - `.tern-multipart/uploads/<key>/<uploadId>`: the upload's marker (JSON:
 *   the write options); its creation time is the upload's start;
 * - `.tern-multipart/parts/<uploadId>/<partNumber>`: the parts, and the
 *   intermediate objects of the compose rounds.
 */
import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Storage, type Bucket, type File, type StorageOptions } from '@google-cloud/storage'
import { GCSDriver } from 'flydrive/drivers/gcs'
import type { WriteOptions } from 'flydrive/types'
import type {
  ByteRangeRequest,
  MultipartLimits,
  MultipartListingCapable,
  MultipartUploadCapable,
  PendingMultipartUpload,
  PendingMultipartUploadPage,
  RangeReadCapable,
  UploadedPart,
} from '#extensions/storage/capabilities'
import {
  BucketDriver,
  BucketPrefix,
  checkPart,
  objectWriteOptions,
  sortParts,
  type ObjectWriteOptions,
} from '#extensions/storage/object_store'
import { parseGcsCredentials, type GcsSettings } from '../config.js'

/** Options of `GcsStorageDriver`. */
export interface GcsStorageDriverOptions {
  /**
   * The current settings; called before every operation (the plugin reads
   * the `gcs.*` config variables). The client is rebuilt when they change.
   */
  settings: () => GcsSettings | Promise<GcsSettings>
  /** Extra `Storage` client options (merged over the ones built from the settings). */
  storageOptions?: Partial<StorageOptions>
  /** Compose calls run at once during a completion (default 4). */
  composeConcurrency?: number
}

/** A failure of the driver's own rules (bad key, missing settings, unknown upload). */
export class GcsStorageDriverError extends Error {
  constructor(
    message: string,
    readonly code:
      'E_GCS_INVALID_KEY' | 'E_GCS_NOT_CONFIGURED' | 'E_GCS_INVALID_PART' | 'E_GCS_NO_SUCH_UPLOAD'
  ) {
    super(message)
    this.name = 'GcsStorageDriverError'
  }
}

const invalidKey = (message: string) => new GcsStorageDriverError(message, 'E_GCS_INVALID_KEY')
const invalidPart = (message: string) => new GcsStorageDriverError(message, 'E_GCS_INVALID_PART')

/** Cloud Storage's compose limit: sources per call. */
export const GCS_MAX_COMPOSE_SOURCES = 32

/**
 * Part rules of compose-based uploads: Cloud Storage has no minimum part
 * size (any object can be a compose source), an object may be 5 TiB, and
 * Tern's chunk protocol numbers parts up to 10,000.
 */
export const GCS_MULTIPART_LIMITS: Readonly<MultipartLimits> = Object.freeze({
  minPartSize: 0,
  maxPartSize: 5 * 1024 * 1024 * 1024 * 1024,
  maxParts: 10_000,
})

/** The folder (under the disk root) holding multipart markers and parts. */
const MULTIPART_FOLDER = '.tern-multipart'
const UPLOAD_ID = /^[0-9a-f]{32}$/

/** One client built from one set of settings. */
interface Connection {
  fingerprint: string
  settings: GcsSettings
  /** The disk's keys under `gcs.bucketPath`. */
  prefix: BucketPrefix
  storage: Storage
  bucket: Bucket
  drive: GCSDriver
}

/** The HTTP status of a Cloud Storage API error, if any. */
function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'number' ? code : undefined
}

/** Runs `tasks` with at most `limit` at once; rejects with the first failure. */
async function runLimited<T>(
  items: T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>
) {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      await task(items[index], index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/**
 * Cloud Storage driver with the multipart-upload (compose), range-read and
 * multipart-listing capabilities. Keys arrive normalised from the facade;
 * the driver still checks them against the prefix (`BucketPrefix`: a second
 * line of defence, the prefix must never be escaped).
 */
export class GcsStorageDriver
  extends BucketDriver<Connection>
  implements MultipartUploadCapable, RangeReadCapable, MultipartListingCapable
{
  /** Compose-based parts: no minimum size (see `GCS_MULTIPART_LIMITS`). */
  readonly multipartLimits: MultipartLimits = GCS_MULTIPART_LIMITS
  #connection?: Connection
  readonly #composeConcurrency: number

  /** @param options see `GcsStorageDriverOptions` */
  constructor(protected options: GcsStorageDriverOptions) {
    super()
    this.#composeConcurrency = Math.max(1, options.composeConcurrency ?? 4)
  }

  /** The connection for the current settings, rebuilt when they changed. */
  async #current(): Promise<Connection> {
    const settings = await this.options.settings()
    if (!settings.bucketName) {
      throw new GcsStorageDriverError(
        'The GCS disk has no bucket: set gcs.bucketName',
        'E_GCS_NOT_CONFIGURED'
      )
    }
    const fingerprint = JSON.stringify(settings)
    if (this.#connection?.fingerprint === fingerprint) return this.#connection

    const credentials = parseGcsCredentials(settings.credentials)
    const projectId =
      settings.projectId ||
      (typeof credentials?.project_id === 'string' ? credentials.project_id : undefined)
    const storage = new Storage({
      ...(projectId ? { projectId } : {}),
      ...(credentials ? { credentials } : {}),
      ...(settings.endpoint ? { apiEndpoint: settings.endpoint } : {}),
      ...this.options.storageOptions,
    })
    this.#connection = {
      fingerprint,
      settings,
      prefix: new BucketPrefix(settings.bucketPath, invalidKey),
      storage,
      bucket: storage.bucket(settings.bucketName),
      drive: new GCSDriver({
        storage,
        bucket: settings.bucketName,
        visibility: 'private',
        usingUniformAcl: true,
      }),
    }
    return this.#connection
  }

  /** Runs `fn` with the current connection. */
  protected async run<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    return fn(await this.#current())
  }

  #file(c: Connection, key: string, generation?: number | string): File {
    return c.bucket.file(c.prefix.key(key), generation === undefined ? {} : { generation })
  }

  /**
   * A stream of the contents. Rejects for a missing object: the object's
   * metadata is read first, and the stream reads that generation (a
   * replacement during the download does not mix two versions).
   */
  async getStream(key: string): Promise<Readable> {
    return this.run(async (c) => {
      const [metadata] = await this.#file(c, key).getMetadata()
      return this.#file(c, key, metadata.generation ?? undefined).createReadStream()
    })
  }

  /**
   * Bytes `start..end` (inclusive) of the object: one ranged media request,
   * so only those bytes travel. Rejects for a missing object, a `start`
   * outside it or a malformed range (before resolving).
   */
  async getStreamRange(key: string, { start, end }: ByteRangeRequest): Promise<Readable> {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
      throw new RangeError(`Invalid byte range ${start}-${end}`)
    }
    return this.run(async (c) => {
      const [metadata] = await this.#file(c, key).getMetadata()
      const size = Number(metadata.size)
      if (start >= size)
        throw new RangeError(`Byte ${start} is past the end of "${key}" (${size} bytes)`)
      return this.#file(c, key, metadata.generation ?? undefined).createReadStream({
        start,
        end: Math.min(end, size - 1),
        validation: false,
      })
    })
  }

  /**
   * Creates or replaces the object from a stream, sent as it arrives in one
   * upload request (no resumable session). A stream that fails aborts the
   * request and the call rejects with the stream's error.
   */
  async putStream(key: string, contents: Readable, options?: WriteOptions): Promise<void> {
    await this.run((c) => this.#upload(this.#file(c, key), contents, options))
  }

  /** One simple (non-resumable) upload of `contents` into `file`; resolves to its generation. */
  async #upload(
    file: File,
    contents: Readable | Uint8Array,
    options?: WriteOptions
  ): Promise<string> {
    const writable = file.createWriteStream({
      resumable: false,
      metadata: objectWriteOptions(options),
    })
    const source = contents instanceof Readable ? contents : Readable.from([Buffer.from(contents)])
    await pipeline(source, writable)
    return String(file.metadata.generation ?? '')
  }

  /** Copies inside the bucket (server side). `options.contentType` replaces the type. */
  async copy(source: string, destination: string, options?: WriteOptions): Promise<void> {
    return this.run(async (c) => {
      await this.#file(c, source).copy(
        this.#file(c, destination),
        options?.contentType ? { contentType: options.contentType } : {}
      )
    })
  }

  /**
   * Deletes the object `prefix` and every object under `prefix/` (`/` = the
   * whole disk, i.e. everything under `gcs.bucketPath`, pending multipart
   * uploads included). Names that merely start with the same text
   * (`share-10` for `share-1`) are kept.
   */
  async deleteAll(prefix: string): Promise<void> {
    return this.run(async (c) => {
      const folder = c.prefix.folder(prefix)
      if (prefix !== '/' && prefix !== '') await c.drive.delete(c.prefix.key(prefix))
      await this.#deletePrefix(c, folder)
    })
  }

  /** Deletes every object whose name starts with `prefix` (`''`: the whole bucket). */
  async #deletePrefix(c: Connection, prefix: string) {
    await c.bucket.deleteFiles({ ...(prefix ? { prefix } : {}), force: false })
  }

  /** The same driver on another bucket (same project, credentials and prefix). */
  bucket(bucket: string): GcsStorageDriver {
    return new GcsStorageDriver({
      ...this.options,
      settings: async () => ({ ...(await this.options.settings()), bucketName: bucket }),
    })
  }

  /* ---------------------------- multipart uploads --------------------------- */

  /** The folder of `uploadId`'s parts (ends with `/`). */
  #partsFolder(c: Connection, uploadId: string): string {
    return `${c.prefix.root}${MULTIPART_FOLDER}/parts/${uploadId}/`
  }

  /** The marker object of `uploadId` for `key`. */
  #marker(c: Connection, key: string, uploadId: string): File {
    return c.bucket.file(
      `${c.prefix.root}${MULTIPART_FOLDER}/uploads/${c.prefix.check(key)}/${uploadId}`
    )
  }

  /** The marker listing prefix for uploads of keys under `prefix`. */
  #markerFolder(c: Connection, prefix: string): string {
    const base = `${c.prefix.root}${MULTIPART_FOLDER}/uploads/`
    return prefix === '/' || prefix === '' ? base : `${base}${c.prefix.check(prefix)}/`
  }

  /** Reads the marker's options; rejects with `E_GCS_NO_SUCH_UPLOAD` when it is missing. */
  async #readMarker(c: Connection, key: string, uploadId: string): Promise<ObjectWriteOptions> {
    if (!UPLOAD_ID.test(uploadId)) throw this.#noSuchUpload(uploadId)
    try {
      const [bytes] = await this.#marker(c, key, uploadId).download()
      return JSON.parse(bytes.toString('utf8') || '{}') as ObjectWriteOptions
    } catch (error) {
      if (statusOf(error) === 404) throw this.#noSuchUpload(uploadId)
      throw error
    }
  }

  #noSuchUpload(uploadId: string) {
    return new GcsStorageDriverError(`No multipart upload "${uploadId}"`, 'E_GCS_NO_SUCH_UPLOAD')
  }

  /**
   * Starts a multipart upload of `key`: writes its marker (with the content
   * type and disposition the final object gets). Resolves to the upload id
   * (32 hex digits; store it in the database).
   */
  async createMultipartUpload(key: string, options?: WriteOptions): Promise<string> {
    return this.run(async (c) => {
      c.prefix.key(key)
      const uploadId = randomUUID().replaceAll('-', '')
      await this.#marker(c, key, uploadId).save(JSON.stringify(objectWriteOptions(options)), {
        resumable: false,
        contentType: 'application/json',
      })
      return uploadId
    })
  }

  /**
   * Uploads part `partNumber` (1..10000, any order, in parallel; a repeated
   * number replaces the part) as its own object, in one simple upload
   * streamed as it arrives. A stream body needs `options.contentLength`.
   * Resolves with the part's generation as its etag (the completion composes
   * exactly that generation). Rejects for an unknown or aborted upload (a
   * part that lands after an abort is deleted again).
   */
  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    contents: Uint8Array | Readable,
    options?: { contentLength?: number }
  ): Promise<UploadedPart> {
    checkPart(this.multipartLimits, partNumber, contents, options?.contentLength, invalidPart)
    return this.run(async (c) => {
      await this.#readMarker(c, key, uploadId)
      const part = c.bucket.file(`${this.#partsFolder(c, uploadId)}${partNumber}`)
      const generation = await this.#upload(part, contents)
      const [markerExists] = await this.#marker(c, key, uploadId).exists()
      if (!markerExists) {
        await part.delete({ ignoreNotFound: true })
        throw this.#noSuchUpload(uploadId)
      }
      return { partNumber, etag: generation }
    })
  }

  /**
   * Composes the parts (sorted by number; each at the generation its etag
   * names) into the object `key`: up to 32 sources per compose call, in
   * rounds (intermediate objects of 32 parts, then of 32 intermediates...),
   * then deletes the parts and the marker. Rejects for an unknown, aborted
   * or completed upload, and for no parts.
   */
  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: UploadedPart[]
  ): Promise<void> {
    return this.run(async (c) => {
      const target = c.prefix.key(key)
      const marker = await this.#readMarker(c, key, uploadId)
      if (parts.length === 0) {
        throw new GcsStorageDriverError(
          'A multipart upload needs at least one part',
          'E_GCS_INVALID_PART'
        )
      }
      const folder = this.#partsFolder(c, uploadId)
      let sources = sortParts(parts).map((part) =>
        c.bucket.file(`${folder}${part.partNumber}`, part.etag ? { generation: part.etag } : {})
      )

      for (let round = 1; sources.length > GCS_MAX_COMPOSE_SOURCES; round++) {
        const groups: File[][] = []
        for (let i = 0; i < sources.length; i += GCS_MAX_COMPOSE_SOURCES) {
          groups.push(sources.slice(i, i + GCS_MAX_COMPOSE_SOURCES))
        }
        const next: File[] = new Array(groups.length)
        await runLimited(groups, this.#composeConcurrency, async (group, index) => {
          const destination = c.bucket.file(`${folder}round-${round}-${index}`)
          next[index] = await this.#compose(destination, group, {})
        })
        sources = next
      }
      await this.#compose(c.bucket.file(target), sources, marker)
      await this.#deletePrefix(c, folder)
      await this.#marker(c, key, uploadId).delete({ ignoreNotFound: true })
    })
  }

  /** One compose call of at most 32 `sources` into `destination`; resolves to the composed file (its generation pinned). */
  async #compose(destination: File, sources: File[], metadata: ObjectWriteOptions): Promise<File> {
    const [response] = (await destination.request({
      method: 'POST',
      uri: '/compose',
      json: {
        destination: {
          contentType: metadata.contentType ?? 'application/octet-stream',
          contentDisposition: metadata.contentDisposition,
          contentEncoding: metadata.contentEncoding,
          contentLanguage: metadata.contentLanguage,
          cacheControl: metadata.cacheControl,
        },
        sourceObjects: sources.map((source) => ({
          name: source.name,
          ...(source.generation ? { generation: Number(source.generation) } : {}),
        })),
      },
    })) as unknown as [{ generation?: string | number }]
    const generation = response?.generation
    return generation === undefined
      ? destination
      : destination.bucket.file(destination.name, { generation: String(generation) })
  }

  /**
   * One page of the unfinished multipart uploads under the folder `prefix`
   * (`/`: the whole disk), keys relative to the disk, in key order; the start
   * time is the marker's creation time. The pagination token is Cloud
   * Storage's page token.
   */
  async listMultipartUploads(
    prefix: string,
    options: { paginationToken?: string; maxResults?: number } = {}
  ): Promise<PendingMultipartUploadPage> {
    return this.run(async (c) => {
      const base = `${c.prefix.root}${MULTIPART_FOLDER}/uploads/`
      const [files, nextQuery] = await c.bucket.getFiles({
        prefix: this.#markerFolder(c, prefix),
        autoPaginate: false,
        maxResults: options.maxResults ?? 1000,
        ...(options.paginationToken ? { pageToken: options.paginationToken } : {}),
      })
      const uploads: PendingMultipartUpload[] = []
      for (const file of files) {
        const rest = file.name.slice(base.length)
        const slash = rest.lastIndexOf('/')
        const uploadId = rest.slice(slash + 1)
        if (slash <= 0 || !UPLOAD_ID.test(uploadId)) continue
        const created = file.metadata.timeCreated ?? file.metadata.updated
        uploads.push({
          key: rest.slice(0, slash),
          uploadId,
          initiatedAt: created ? new Date(created) : new Date(0),
        })
      }
      const token = (nextQuery as { pageToken?: string } | null | undefined)?.pageToken
      return { uploads, ...(token ? { paginationToken: token } : {}) }
    })
  }

  /** Drops an unfinished upload: its marker, then its parts. An unknown upload id is fine. */
  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    return this.run(async (c) => {
      c.prefix.key(key)
      if (!UPLOAD_ID.test(uploadId)) return
      await this.#marker(c, key, uploadId).delete({ ignoreNotFound: true })
      await this.#deletePrefix(c, this.#partsFolder(c, uploadId))
    })
  }

  /** Forgets the client (plugin shutdown). The driver reconnects if used again. */
  close(): void {
    this.#connection = undefined
  }
}
