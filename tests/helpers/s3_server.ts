/**
 * A real S3 endpoint on loopback for tests: `s3rver` (an S3 API over a
 * temporary folder), with the given bucket created and the fixed credentials
 * `S3RVER` / `S3RVER` (an unknown access key id is refused with
 * InvalidAccessKeyId; s3rver does not verify SigV4 signatures, so a wrong
 * secret goes unnoticed).
 *
 * ```ts
 * import { startS3Server } from '#tests/helpers/s3_server'
 *
 * const s3 = await startS3Server({ bucket: 'tern' })
 * await configValues.update([
 *   { key: 's3.endpoint', value: s3.endpoint },          // http://127.0.0.1:<port>
 *   { key: 's3.bucketName', value: s3.bucket },
 *   { key: 's3.key', value: s3.accessKeyId },
 *   { key: 's3.secret', value: s3.secretAccessKey },
 *   { key: 's3.forcePathStyle', value: true },            // required: no virtual-host buckets on 127.0.0.1
 * ])
 * // ...
 * await s3.close()                                        // server stopped, folder removed
 * ```
 *
 * s3rver lacks AbortMultipartUpload and ListMultipartUploads (it answers
 * NotImplemented); the helper adds both so they behave as on Amazon S3:
 * DELETE `/<bucket>/<key>?uploadId=` (204, or 404 `NoSuchUpload` for an
 * unknown id) and GET `/<bucket>?uploads` (S3's XML, with `prefix`,
 * `max-uploads`, `key-marker` and `upload-id-marker`; `Initiated` is the
 * time the upload started, which `setUploadInitiated` can move back). Differences from Amazon S3 to keep in
 * mind: s3rver does NOT enforce the 5 MiB minimum part size (a test passing
 * here with small parts would fail on S3), does not check part etags on
 * completion, has no UploadPartCopy, accepts bodies of unknown length, and accepts parts
 * for an upload id it does not know (only completion fails). Its UploadPart
 * is replaced by one that writes the part whole before it replaces an earlier
 * one, as S3 does (`atomicPutPart`).
 */
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/** Options of `startS3Server`. */
export interface S3ServerOptions {
  /** The bucket to create (default `tern`). */
  bucket?: string
  /** More buckets to create. */
  extraBuckets?: string[]
}

/** A running s3rver. */
export interface S3Server {
  /** `http://127.0.0.1:<port>` (use path-style requests). */
  endpoint: string
  /** The bucket created at start. */
  bucket: string
  /** Access key id s3rver accepts: `S3RVER`. */
  accessKeyId: string
  /** Secret access key s3rver accepts: `S3RVER`. */
  secretAccessKey: string
  /** The temporary folder holding the buckets. */
  directory: string
  /** Ids of the multipart uploads started and neither completed nor aborted in `bucket`. */
  pendingUploads(bucket?: string): Promise<string[]>
  /** Moves the start time ListMultipartUploads reports for an upload (e.g. two days back). */
  setUploadInitiated(uploadId: string, date: Date, bucket?: string): Promise<void>
  /** Stops the server and removes its folder. Safe to call twice. */
  close(): Promise<void>
}

/** The subset of Koa's context the abort middleware uses. */
interface KoaContext {
  method: string
  path: string
  query: Record<string, string | string[] | undefined>
  querystring: string
  status: number
  type: string
  body: unknown
}

/** The subset of s3rver's filesystem store the helper replaces. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string
  putPart(
    bucket: string,
    uploadId: string,
    partNumber: string,
    content: Readable
  ): Promise<{ size: number; md5: string }>
}

/** The subset of the s3rver instance the helper uses. */
interface S3rverInstance {
  httpServer?: import('node:http').Server
  store: S3rverStore
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void>
  run(): Promise<AddressInfo>
  close(): Promise<void>
}

type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance

const require = createRequire(import.meta.url)

/** Where s3rver keeps the parts of unfinished multipart uploads of `bucket`. */
function uploadsFolder(directory: string, bucket: string): string {
  return join(directory, bucket, '._S3rver_uploads')
}

/**
 * AbortMultipartUpload for s3rver: removes the upload's folder. Placed after
 * s3rver's own request parsing (virtual-host rewriting) and before its
 * router, which would answer 405.
 */
function abortMultipartUpload(directory: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string') return next()
    const bucket = decodeURIComponent(ctx.path.split('/')[1] ?? '')
    const folder =
      /^[0-9a-f]+$/.test(uploadId) && bucket
        ? join(uploadsFolder(directory, bucket), uploadId)
        : null
    const exists = folder
      ? await readdir(folder).then(
          () => true,
          () => false
        )
      : false
    if (!exists) {
      ctx.status = 404
      ctx.type = 'application/xml'
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
        '<Message>The specified upload does not exist.</Message></Error>'
      return
    }
    await rm(folder!, { recursive: true, force: true })
    ctx.status = 204
    ctx.body = null
  }
}

/**
 * UploadPart as S3 does it: a part sent again replaces the earlier one at
 * once, when it is whole, and the answer comes once it is written. s3rver
 * rewrites the part file in place and answers before it is flushed, so a
 * CompleteMultipartUpload racing a duplicate of the last part (the same
 * bytes) could join it empty. Written to a file of its own, then renamed.
 */
function atomicPutPart(store: S3rverStore) {
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const partPath = join(
      store.getResourcePath(bucket, undefined, 'uploads'),
      uploadId,
      String(partNumber)
    )
    await mkdir(dirname(partPath), { recursive: true })
    const partial = `${partPath}.${randomUUID()}.partial`
    const md5 = createHash('md5')
    let size = 0
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk)
        size += chunk.length
        callback(null, chunk)
      },
    })
    try {
      await pipeline(content, count, createWriteStream(partial))
      await rename(partial, partPath)
    } catch (error) {
      await rm(partial, { force: true })
      throw error
    }
    const digest = md5.digest('hex')
    await writeFile(`${partPath}.md5`, digest)
    return { size, md5: digest }
  }
}

/** Escapes text for an XML element. */
function xml(value: string): string {
  return value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** One unfinished upload as s3rver keeps it: its folder holds the key (file `key`, written at the start). */
async function readUploads(directory: string, bucket: string) {
  const folder = uploadsFolder(directory, bucket)
  const ids = await readdir(folder).catch(() => [] as string[])
  const uploads = await Promise.all(
    ids.map(async (uploadId) => {
      const keyFile = join(folder, uploadId, 'key')
      const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]).catch(
        () => [null, null]
      )
      return key === null || info === null ? null : { key, uploadId, initiated: info.mtime }
    })
  )
  return uploads
    .filter((upload) => upload !== null)
    .sort((a, b) =>
      a.key === b.key ? a.uploadId.localeCompare(b.uploadId) : a.key < b.key ? -1 : 1
    )
}

/**
 * ListMultipartUploads for s3rver (GET `/<bucket>?uploads`): S3's XML
 * answer over the uploads folder, with prefix, max-uploads and the
 * key/upload-id markers. Placed like the abort middleware.
 */
function listMultipartUploads(directory: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const segments = ctx.path.split('/').filter(Boolean)
    if (
      ctx.method !== 'GET' ||
      segments.length !== 1 ||
      !new URLSearchParams(ctx.querystring).has('uploads')
    ) {
      return next()
    }
    const bucket = decodeURIComponent(segments[0])
    const text = (name: string) =>
      typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : ''
    const prefix = text('prefix')
    const keyMarker = text('key-marker')
    const uploadIdMarker = text('upload-id-marker')
    const maxUploads = Math.min(Number(text('max-uploads') || 1000) || 1000, 1000)
    const after = (upload: { key: string; uploadId: string }) =>
      !keyMarker ||
      upload.key > keyMarker ||
      (upload.key === keyMarker && uploadIdMarker !== '' && upload.uploadId > uploadIdMarker)
    const matching = (await readUploads(directory, bucket)).filter(
      (upload) => upload.key.startsWith(prefix) && after(upload)
    )
    const page = matching.slice(0, maxUploads)
    const truncated = matching.length > page.length
    const last = page.at(-1)
    ctx.status = 200
    ctx.type = 'application/xml'
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      `<Bucket>${xml(bucket)}</Bucket><KeyMarker>${xml(keyMarker)}</KeyMarker>` +
      `<UploadIdMarker>${xml(uploadIdMarker)}</UploadIdMarker>` +
      (truncated && last
        ? `<NextKeyMarker>${xml(last.key)}</NextKeyMarker><NextUploadIdMarker>${xml(last.uploadId)}</NextUploadIdMarker>`
        : '') +
      `<Prefix>${xml(prefix)}</Prefix><MaxUploads>${maxUploads}</MaxUploads>` +
      `<IsTruncated>${truncated}</IsTruncated>` +
      page
        .map(
          (upload) =>
            `<Upload><Key>${xml(upload.key)}</Key><UploadId>${xml(upload.uploadId)}</UploadId>` +
            `<Initiator><ID>S3RVER</ID><DisplayName>S3RVER</DisplayName></Initiator>` +
            `<Owner><ID>S3RVER</ID><DisplayName>S3RVER</DisplayName></Owner>` +
            `<StorageClass>STANDARD</StorageClass><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`
        )
        .join('') +
      '</ListMultipartUploadsResult>'
  }
}

/** Starts s3rver on 127.0.0.1 (free port) over a new temporary folder. */
export async function startS3Server(options: S3ServerOptions = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'tern'
  const directory = await mkdtemp(join(tmpdir(), 'tern-s3rver-'))
  const S3rver = require('s3rver') as S3rverClass
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: false,
    configureBuckets: [bucket, ...(options.extraBuckets ?? [])].map((name) => ({ name })),
  })
  atomicPutPart(server.store)
  // The router is s3rver's last middleware.
  server.middleware.splice(
    server.middleware.length - 1,
    0,
    abortMultipartUpload(directory),
    listMultipartUploads(directory)
  )

  let address: AddressInfo
  try {
    address = await server.run()
  } catch (error) {
    await rm(directory, { recursive: true, force: true })
    throw error
  }

  let closed = false
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    directory,
    async pendingUploads(name = bucket) {
      return readdir(uploadsFolder(directory, name)).catch(() => [])
    },
    async setUploadInitiated(uploadId, date, name = bucket) {
      const keyFile = join(uploadsFolder(directory, name), uploadId, 'key')
      await utimes(keyFile, date, date)
    },
    async close() {
      if (closed) return
      closed = true
      try {
        const stopping = server.close()
        // Clients keep idle keep-alive sockets open: end them, or close waits for their timeout.
        server.httpServer?.closeAllConnections()
        await stopping
      } finally {
        await rm(directory, { recursive: true, force: true })
      }
    },
  }
}
