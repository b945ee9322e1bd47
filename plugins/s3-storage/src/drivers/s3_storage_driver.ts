/**
 * The S3 storage driver: flydrive's S3 driver (`flydrive/drivers/s3`) for
 * the plain operations (through `BucketDriver`, #extensions/storage/object_store),
 * plus a key prefix (`s3.bucketPath`), the
 * multipart-upload capability, prefix-exact `deleteAll`/`listAll`, encoded
 * copy sources and streams of unknown length (`@aws-sdk/lib-storage`). Its settings are read before
 * every operation and the S3 client is rebuilt when they changed, so an
 * admin's change takes effect without a restart; a superseded client is
 * destroyed once its last request (or download stream) is over.
 *
 * Beside it: s3_client.ts (a connection per set of settings, copy-source
 * keys), s3_range.ts (range reads cut to the range asked for),
 * s3_multipart.ts (the no-such-upload answer, the listing's token) and
 * s3_errors.ts.
 */
import { Readable } from 'node:stream'
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
  UploadPartCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
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
import { BucketDriver, checkPart, sortParts } from '#extensions/storage/object_store'
import type { S3Settings } from '../config.js'
import { connect, encodeKey, type Connection } from './s3_client.js'
import { invalidPart, S3StorageDriverError } from './s3_errors.js'
import { decodeMarkers, encodeMarkers, isNoSuchUpload } from './s3_multipart.js'
import { exactRange } from './s3_range.js'

export { S3StorageDriverError } from './s3_errors.js'

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

const DEFAULT_STREAM_PART_SIZE = 8 * 1024 * 1024

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

    const connection = connect(settings, fingerprint, this.options.clientConfig)
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
