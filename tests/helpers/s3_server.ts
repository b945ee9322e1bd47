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
 * s3rver lacks AbortMultipartUpload; the helper adds it (DELETE
 * `/<bucket>/<key>?uploadId=`: 204, or 404 `NoSuchUpload` for an unknown
 * id) so aborts behave as on Amazon S3. Differences from Amazon S3 to keep in
 * mind: s3rver does NOT enforce the 5 MiB minimum part size (a test passing
 * here with small parts would fail on S3), does not check part etags on
 * completion, has no UploadPartCopy, accepts bodies of unknown length, and accepts parts
 * for an upload id it does not know (only completion fails).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  /** Stops the server and removes its folder. Safe to call twice. */
  close(): Promise<void>
}

/** The subset of Koa's context the abort middleware uses. */
interface KoaContext {
  method: string
  path: string
  query: Record<string, string | string[] | undefined>
  status: number
  type: string
  body: unknown
}

/** The subset of the s3rver instance the helper uses. */
interface S3rverInstance {
  httpServer?: import('node:http').Server
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
    const folder = /^[0-9a-f]+$/.test(uploadId) && bucket ? join(uploadsFolder(directory, bucket), uploadId) : null
    const exists = folder ? await readdir(folder).then(() => true, () => false) : false
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
  // The router is s3rver's last middleware.
  server.middleware.splice(server.middleware.length - 1, 0, abortMultipartUpload(directory))

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
