/**
 * The S3 storage driver: flydrive's S3 driver (`flydrive/drivers/s3`) for
 * the plain operations (through `BucketDriver`, #extensions/storage/object_store),
 * plus a key prefix (`s3.bucketPath`), the
 * multipart-upload capability, prefix-exact `deleteAll`/`listAll`, encoded
 * copy sources and streams of unknown length (`@aws-sdk/lib-storage`). Its settings are read before
 * every operation and the S3 client is rebuilt when they changed, so an
 * admin's change takes effect without a restart; a superseded client is
 * destroyed once its last request (or download stream) is over.
 */
import { Readable, Transform } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { S3Driver } from 'flydrive/drivers/s3'
import type { WriteOptions } from 'flydrive/types'
import {
  DEFAULT_MULTIPART_LIMITS,
  type ByteRangeRequest,
  type MultipartLimits,
  type MultipartListingCapable,
  type MultipartUploadCapable,
  type PendingMultipartUpload,
  type PendingMultipartUploadPage,
  type RangeReadCapable,
  type UploadedPart,
} from '#extensions/storage/capabilities'
import { BucketDriver, BucketPrefix, checkPart, sortParts } from '#extensions/storage/object_store'
import { S3_DEFAULT_REGION, type S3Settings } from '../config.js'

/** Options of `S3StorageDriver`. */
export interface S3StorageDriverOptions {
  /**
   * The current settings; called before every operation (the plugin reads
   * the `s3.*` config variables). The client is rebuilt when they change.
   */
  settings: () => S3Settings | Promise<S3Settings>
  /** Extra S3 client options (merged over the ones built from the settings). */
  clientConfig?: Partial<S3ClientConfig>
  /**
   * Size of the parts `putStream` uses for a stream of unknown length (only
   * one part is held in memory at a time). Default 8 MiB; at least the
   * minimum part size.
   */
  streamPartSize?: number
}

/** A failure of the driver's own rules (bad key, missing settings). */
export class S3StorageDriverError extends Error {
  constructor(
    message: string,
    readonly code: 'E_S3_INVALID_KEY' | 'E_S3_NOT_CONFIGURED' | 'E_S3_INVALID_PART'
  ) {
    super(message)
    this.name = 'S3StorageDriverError'
  }
}

const invalidKey = (message: string) => new S3StorageDriverError(message, 'E_S3_INVALID_KEY')
const invalidPart = (message: string) => new S3StorageDriverError(message, 'E_S3_INVALID_PART')

/** One client built from one set of settings. */
interface Connection {
  fingerprint: string
  settings: S3Settings
  /** The disk's keys under `s3.bucketPath`. */
  prefix: BucketPrefix
  client: S3Client
  drive: S3Driver
  /** Requests (and open download streams) still using the client. */
  active: number
  /** Superseded by newer settings: destroyed when `active` drops to 0. */
  retired: boolean
}

const DEFAULT_STREAM_PART_SIZE = 8 * 1024 * 1024

/** True for S3's "no such upload" answer (unknown, completed or aborted upload id). */
function isNoSuchUpload(error: unknown): boolean {
  const candidate = error as {
    name?: string
    Code?: string
    $metadata?: { httpStatusCode?: number }
  }
  return (
    candidate?.name === 'NoSuchUpload' ||
    candidate?.Code === 'NoSuchUpload' ||
    candidate?.$metadata?.httpStatusCode === 404
  )
}

/**
 * The body of a ranged GetObject cut to exactly `start..end`. Amazon S3
 * sends exactly the range; some S3-compatible servers ignore it (200, the
 * whole object, no Content-Range) or widen it (s3rver answers `bytes=0-0`
 * with the whole object). The body is passed through untouched when its
 * Content-Range is the one asked for (clamped to the object); otherwise the
 * bytes outside the range are dropped as they stream.
 */
function exactRange(
  body: Readable,
  contentRange: string | undefined,
  start: number,
  end: number
): Readable {
  const match = contentRange ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange.trim()) : null
  let offset = 0
  if (match) {
    const [first, last, size] = [
      Number(match[1]),
      Number(match[2]),
      match[3] === '*' ? Infinity : Number(match[3]),
    ]
    if (first > start) {
      body.destroy()
      throw new Error(`S3 answered the range ${contentRange} for bytes=${start}-${end}`)
    }
    if (first === start && last === Math.min(end, size - 1)) return body
    offset = first
  }
  // Skip to `start`, stop after `end`.
  let done = false
  const window = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback()
      const from = Math.max(start - offset, 0)
      const to = Math.min(end + 1 - offset, chunk.length)
      offset += chunk.length
      if (to > from) this.push(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to))
      if (offset > end) {
        done = true
        this.push(null)
        body.unpipe(window)
        body.destroy()
      }
      callback()
    },
  })
  body.once('error', (error) => window.destroy(error))
  return body.pipe(window)
}

/** S3's listing markers of a multipart-upload page. */
interface UploadMarkers {
  key?: string
  uploadId?: string
}

/** The opaque pagination token of `listMultipartUploads`. */
function encodeMarkers(markers: UploadMarkers): string {
  return Buffer.from(JSON.stringify(markers)).toString('base64url')
}

/** Reads a token of `encodeMarkers` (an unreadable one starts from the beginning). */
function decodeMarkers(token: string): UploadMarkers {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as UploadMarkers
    return {
      key: typeof value.key === 'string' ? value.key : undefined,
      uploadId: typeof value.uploadId === 'string' ? value.uploadId : undefined,
    }
  } catch {
    return {}
  }
}

/** URL-encodes each segment of a key (S3's `CopySource` must be encoded). */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/')
}

/**
 * S3 driver with the multipart-upload, range-read and multipart-listing
 * capabilities. Keys arrive normalised from the facade; the driver still
 * checks them against the prefix (`BucketPrefix`: a second line of defence,
 * the prefix must never be escaped).
 */
export class S3StorageDriver
  extends BucketDriver<Connection>
  implements MultipartUploadCapable, RangeReadCapable, MultipartListingCapable
{
  /** Amazon S3's part rules (s3rver does not enforce the minimum; S3 does). */
  readonly multipartLimits: MultipartLimits = DEFAULT_MULTIPART_LIMITS
  #connection?: Connection
  readonly #streamPartSize: number

  /** @param options see `S3StorageDriverOptions` */
  constructor(protected options: S3StorageDriverOptions) {
    super()
    this.#streamPartSize = Math.max(
      options.streamPartSize ?? DEFAULT_STREAM_PART_SIZE,
      this.multipartLimits.minPartSize
    )
  }

  /** The connection for the current settings, rebuilt when they changed. */
  async #current(): Promise<Connection> {
    const settings = await this.options.settings()
    if (!settings.bucketName) {
      throw new S3StorageDriverError(
        'The S3 disk has no bucket: set s3.bucketName',
        'E_S3_NOT_CONFIGURED'
      )
    }
    const fingerprint = JSON.stringify(settings)
    const current = this.#connection
    if (current && current.fingerprint === fingerprint) return current

    const client = new S3Client({
      region: settings.region || S3_DEFAULT_REGION,
      endpoint: settings.endpoint || undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.key || settings.secret
          ? { accessKeyId: settings.key, secretAccessKey: settings.secret }
          : undefined,
      // Only the checksums S3 requires: optional ones switch streamed bodies
      // to aws-chunked encoding, which S3-compatible servers often reject.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...this.options.clientConfig,
    })
    const connection: Connection = {
      fingerprint,
      settings,
      prefix: new BucketPrefix(settings.bucketPath, invalidKey),
      client,
      drive: new S3Driver({
        client,
        bucket: settings.bucketName,
        visibility: 'private',
        supportsACL: false,
      }),
      active: 0,
      retired: false,
    }
    this.#connection = connection
    if (current) this.#retire(current)
    return connection
  }

  #retire(connection: Connection) {
    connection.retired = true
    if (connection.active === 0) connection.client.destroy()
  }

  #release(connection: Connection) {
    connection.active--
    if (connection.retired && connection.active === 0) connection.client.destroy()
  }

  /** Runs `fn` with the current connection, keeping its client alive meanwhile. */
  protected async run<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = await this.#current()
    connection.active++
    try {
      return await fn(connection)
    } finally {
      this.#release(connection)
    }
  }

  /**
   * A stream of the contents. Rejects for a missing object (the request is
   * made before resolving). The client stays alive until the stream closes.
   */
  async getStream(key: string): Promise<Readable> {
    return this.#openStream((c) => c.drive.getStream(c.prefix.key(key)))
  }

  /**
   * Bytes `start..end` (inclusive) of the object: one GetObject with
   * `Range: bytes=start-end`, so S3 sends only those bytes. Rejects for a
   * missing object and (S3's InvalidRange) for a `start` past the end.
   */
  async getStreamRange(key: string, { start, end }: ByteRangeRequest): Promise<Readable> {
    return this.#openStream(async (c) => {
      const { Body, ContentRange } = await c.client.send(
        new GetObjectCommand({
          Bucket: c.settings.bucketName,
          Key: c.prefix.key(key),
          Range: `bytes=${start}-${end}`,
        })
      )
      if (!(Body instanceof Readable)) throw new Error('S3 returned no body stream')
      return exactRange(Body, ContentRange, start, end)
    })
  }

  /** Opens a download stream, keeping the client alive until the stream closes. */
  async #openStream(open: (connection: Connection) => Promise<Readable>): Promise<Readable> {
    const connection = await this.#current()
    connection.active++
    let stream: Readable
    try {
      stream = await open(connection)
    } catch (error) {
      this.#release(connection)
      throw error
    }
    let released = false
    const release = () => {
      if (released) return
      released = true
      this.#release(connection)
    }
    stream.once('close', release)
    stream.once('error', release)
    return stream
  }

  /**
   * Creates or replaces the object from a stream. With
   * `options.contentLength` the stream goes out as one PUT of that length
   * (pass it whenever known: Amazon S3 refuses a PUT of unknown length).
   * Without it, the stream is uploaded in parts of `streamPartSize` (one
   * part in memory at a time), or as one PUT when it is shorter than a part.
   */
  async putStream(key: string, contents: Readable, options?: WriteOptions): Promise<void> {
    if (options?.contentLength !== undefined) {
      return this.run(async (c) => {
        const command = new PutObjectCommand({
          Bucket: c.settings.bucketName,
          Key: c.prefix.key(key),
          Body: contents,
          ContentLength: options.contentLength,
          ContentType: options.contentType,
          ContentDisposition: options.contentDisposition,
          ContentEncoding: options.contentEncoding,
          ContentLanguage: options.contentLanguage,
          CacheControl: options.cacheControl,
        })
        await this.#send(contents, (sendOptions) => c.client.send(command, sendOptions))
      })
    }
    return this.run((c) => this.#putStreamInParts(c, c.prefix.key(key), contents, options))
  }

  /**
   * A stream of unknown length through `@aws-sdk/lib-storage`: one PUT when
   * it fits in a part, else a multipart upload of `streamPartSize` parts sent
   * one at a time (one part in memory), aborted when anything fails.
   */
  async #putStreamInParts(
    c: Connection,
    objectKey: string,
    contents: Readable,
    options?: WriteOptions
  ) {
    const upload = new Upload({
      client: c.client,
      params: {
        Bucket: c.settings.bucketName,
        Key: objectKey,
        Body: contents,
        ContentType: options?.contentType,
        ContentDisposition: options?.contentDisposition,
        ContentEncoding: options?.contentEncoding,
        ContentLanguage: options?.contentLanguage,
        CacheControl: options?.cacheControl,
      },
      partSize: this.#streamPartSize,
      queueSize: 1,
      leavePartsOnError: false,
    })
    try {
      await upload.done()
    } catch (error) {
      contents.destroy()
      throw error
    }
  }

  /**
   * Copies inside the bucket (server side). The content type is kept unless
   * `options.contentType` replaces it.
   */
  async copy(source: string, destination: string, options?: WriteOptions): Promise<void> {
    return this.run(async (c) => {
      const from = c.prefix.key(source)
      await c.client.send(
        new CopyObjectCommand({
          Bucket: c.settings.bucketName,
          Key: c.prefix.key(destination),
          CopySource: `${c.settings.bucketName}/${encodeKey(from)}`,
          ...(options?.contentType
            ? { MetadataDirective: 'REPLACE', ContentType: options.contentType }
            : {}),
        })
      )
    })
  }

  /**
   * Deletes the object `prefix` and every object under `prefix/` (`/` = the
   * whole disk, i.e. everything under `s3.bucketPath`). Keys that merely
   * start with the same text (`share-10` for `share-1`) are kept.
   */
  async deleteAll(prefix: string): Promise<void> {
    return this.run(async (c) => {
      const folder = c.prefix.folder(prefix)
      if (prefix !== '/' && prefix !== '') await c.drive.delete(c.prefix.key(prefix))
      let token: string | undefined
      do {
        const page = await c.client.send(
          new ListObjectsV2Command({
            Bucket: c.settings.bucketName,
            ContinuationToken: token,
            ...(folder ? { Prefix: folder } : {}),
          })
        )
        const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }))
        if (keys.length > 0) {
          await c.client.send(
            new DeleteObjectsCommand({
              Bucket: c.settings.bucketName,
              Delete: { Objects: keys, Quiet: true },
            })
          )
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    })
  }

  /** The same driver on another bucket (same endpoint, credentials and prefix). */
  bucket(bucket: string): S3StorageDriver {
    return new S3StorageDriver({
      ...this.options,
      settings: async () => ({ ...(await this.options.settings()), bucketName: bucket }),
    })
  }

  /** Starts a multipart upload of `key`; resolves to S3's upload id (store it in the database). */
  async createMultipartUpload(key: string, options?: WriteOptions): Promise<string> {
    return this.run(async (c) => {
      const { UploadId } = await c.client.send(
        new CreateMultipartUploadCommand({
          Bucket: c.settings.bucketName,
          Key: c.prefix.key(key),
          ContentType: options?.contentType,
          ContentDisposition: options?.contentDisposition,
        })
      )
      if (!UploadId) throw new Error('S3 returned no upload id')
      return UploadId
    })
  }

  /**
   * Uploads part `partNumber` (1..10000, any order; a repeated number
   * replaces the part). A stream body needs `options.contentLength` (it is
   * streamed, not buffered); bytes know their length. Every part but the
   * last must be at least `multipartLimits.minPartSize` on Amazon S3.
   */
  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    contents: Uint8Array | Readable,
    options?: { contentLength?: number }
  ): Promise<UploadedPart> {
    const length = checkPart(
      this.multipartLimits,
      partNumber,
      contents,
      options?.contentLength,
      invalidPart
    )
    return this.run((c) =>
      this.#sendPart(c, c.prefix.key(key), uploadId, partNumber, contents, length)
    )
  }

  /**
   * Sends a command whose body may be a stream: when the stream fails, the
   * request is aborted (the SDK would otherwise wait forever for the
   * missing bytes) and the stream's error is the rejection.
   */
  async #send<T>(
    body: unknown,
    send: (options: { abortSignal?: AbortSignal }) => Promise<T>
  ): Promise<T> {
    if (!(body instanceof Readable)) return send({})
    const controller = new AbortController()
    let streamError: unknown
    const onError = (error: unknown) => {
      streamError = error
      controller.abort(error)
    }
    body.once('error', onError)
    try {
      return await send({ abortSignal: controller.signal })
    } catch (error) {
      throw streamError ?? error
    } finally {
      body.off('error', onError)
    }
  }

  async #sendPart(
    c: Connection,
    objectKey: string,
    uploadId: string,
    partNumber: number,
    body: Uint8Array | Readable,
    contentLength: number
  ): Promise<UploadedPart> {
    const command = new UploadPartCommand({
      Bucket: c.settings.bucketName,
      Key: objectKey,
      UploadId: uploadId,
      PartNumber: partNumber,
      Body: body,
      ContentLength: contentLength,
    })
    const { ETag } = await this.#send(body, (sendOptions) => c.client.send(command, sendOptions))
    if (!ETag) throw new Error(`S3 returned no etag for part ${partNumber}`)
    return { partNumber, etag: ETag }
  }

  /** Assembles the object from `parts` (sorted by number). Rejects for an unknown upload id. */
  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: UploadedPart[]
  ): Promise<void> {
    return this.run((c) => this.#complete(c, c.prefix.key(key), uploadId, parts))
  }

  async #complete(c: Connection, objectKey: string, uploadId: string, parts: UploadedPart[]) {
    await c.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: c.settings.bucketName,
        Key: objectKey,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: sortParts(parts).map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
        },
      })
    )
  }

  /**
   * One page of the unfinished multipart uploads under the folder `prefix`
   * (`/`: the whole disk, i.e. everything under `s3.bucketPath`), keys
   * relative to the disk. The pagination token carries S3's key and
   * upload-id markers.
   */
  async listMultipartUploads(
    prefix: string,
    options: { paginationToken?: string; maxResults?: number } = {}
  ): Promise<PendingMultipartUploadPage> {
    return this.run(async (c) => {
      const folder = c.prefix.folder(prefix)
      const markers = options.paginationToken ? decodeMarkers(options.paginationToken) : {}
      const page = await c.client.send(
        new ListMultipartUploadsCommand({
          Bucket: c.settings.bucketName,
          ...(folder ? { Prefix: folder } : {}),
          KeyMarker: markers.key,
          UploadIdMarker: markers.uploadId,
          MaxUploads: options.maxResults,
        })
      )
      const uploads: PendingMultipartUpload[] = (page.Uploads ?? [])
        .filter((upload) => upload.Key && upload.UploadId)
        .map((upload) => ({
          key: c.prefix.strip(upload.Key!),
          uploadId: upload.UploadId!,
          initiatedAt: upload.Initiated ?? new Date(0),
        }))
      const next =
        page.IsTruncated && (page.NextKeyMarker || page.NextUploadIdMarker)
          ? encodeMarkers({ key: page.NextKeyMarker, uploadId: page.NextUploadIdMarker })
          : undefined
      return { uploads, ...(next ? { paginationToken: next } : {}) }
    })
  }

  /** Drops an unfinished upload and its parts; an unknown upload id is fine. */
  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    return this.run((c) => this.#abort(c, c.prefix.key(key), uploadId))
  }

  async #abort(c: Connection, objectKey: string, uploadId: string) {
    try {
      await c.client.send(
        new AbortMultipartUploadCommand({
          Bucket: c.settings.bucketName,
          Key: objectKey,
          UploadId: uploadId,
        })
      )
    } catch (error) {
      if (!isNoSuchUpload(error)) throw error
    }
  }

  /** Destroys the S3 client (plugin shutdown). The driver reconnects if used again. */
  close(): void {
    const current = this.#connection
    this.#connection = undefined
    if (current) this.#retire(current)
  }
}
