/**
 * Compresses dynamic answers (so the share page's HTML is at most 40 KB on
 * the wire): HTML pages, JSON, and other compressible text (by
 * Content-Type, mime-db) go out as brotli or gzip according to the request's
 * Accept-Encoding (q-values, q=0 respected; identity when nothing fits), with
 * `Vary: Accept-Encoding`; bodies under 1 KB go out as they are. HEAD gets
 * the headers GET would get (Content-Encoding, Vary, no Content-Length when
 * compressed): `compression` leaves HEAD alone, so it is shown the request
 * as a GET; node drops the body of an answer to HEAD, the compressed bytes
 * included (a page's compression costs well under a millisecond).
 *
 * Built on `compression` (Express' maintained middleware, brotli since 1.8),
 * which patches node's res.writeHead/write/end: Adonis writes every answer
 * through them (res.writeHead + res.end for bodies, stream.pipe(res) for
 * streams), so this runs early as a server middleware, and streamed answers
 * still stream (res.flush() is available to push a partial answer).
 *
 * Never compressed (see `TRANSFER_PATH` and `shouldCompress`): file and zip
 * downloads (their routes, and any answer with Content-Disposition: exact
 * Content-Length, Range and throughput stay as they are; a zip or a photo
 * gains nothing), any ranged request or 206/Content-Range answer, answers with a Content-Encoding already set or
 * `Cache-Control: no-transform`, and Vite's hashed assets under /assets/
 * (compressed once and kept by #services/http/hashed_assets instead).
 *
 * Brotli quality 4 with a 256 KB window (lgwin 18): measured with bench/pages
 * (5 s, 50 connections, one loaded run per setting, same build), the share
 * page's HTML (13.0 KB) goes out in 4.5 KB at quality 4 and 4.2 KB at
 * quality 5, for 3.2 against 4.2 CPU-seconds per 1000 requests (2.0 without
 * compression). A compression stream's own set-up is a good part of the cost
 * on small pages; brotli's default 4 MB window makes it larger for nothing
 * (no page is near 256 KB): a 13 KB body costs 0.41 ms of CPU with lgwin 18
 * against 0.55 ms with the default (node:zlib micro-benchmark, loaded machine).
 */
import { constants as zlib } from 'node:zlib'
import type { IncomingMessage, ServerResponse } from 'node:http'
import compression from 'compression'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/** Vite's build output, answered precompressed by the hashed-assets middleware. */
const ASSETS_PREFIX = '/assets/'

/**
 * Chunk uploads and file and zip downloads (start/routes/shares.ts): their
 * bodies are the files' bytes and their JSON answers are tiny, so their
 * responses are not even wrapped (no per-write cost on a multi-GB download).
 */
const TRANSFER_PATH = /^\/api\/shares\/[^/]+\/files(?:[/?]|$)/

/** Whether this answer may be compressed; asked when its headers go out. */
export function shouldCompress(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.range !== undefined) return false
  if (res.statusCode === 206 || res.hasHeader('Content-Range')) return false
  // Share file and zip downloads (app/services/files/file_download.ts) always say how to save them.
  if (res.hasHeader('Content-Disposition')) return false
  if (req.url?.startsWith(ASSETS_PREFIX)) return false
  return compression.filter(req, res)
}

const compress = compression({
  filter: shouldCompress,
  threshold: 1024,
  level: 6,
  brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_LGWIN]: 18 } },
})

/**
 * The request as `compression` sees it: a HEAD request shows itself as GET
 * (everything else read from the real one), so its answer's headers are
 * decided exactly as GET's are.
 */
function asCompressionSees(req: IncomingMessage): IncomingMessage {
  return req.method === 'HEAD' ? Object.create(req, { method: { value: 'GET' } }) : req
}

export default class CompressionMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const req = ctx.request.request
    if (req.headers.range === undefined && !TRANSFER_PATH.test(req.url ?? '')) {
      // Synchronous: it only wraps the raw response's writing methods, then calls back.
      compress(asCompressionSees(req), ctx.response.response, () => {})
    }
    return next()
  }
}
