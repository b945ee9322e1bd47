/**
 * Serving a share file (spec/api.md §4): streamed from its disk (a range
 * is read from its start on disks with ranged reads), with
 * Content-Type from the name, Content-Disposition (RFC 5987 names),
 * `Content-Security-Policy: sandbox`, `nosniff`, `Accept-Ranges`, a single
 * byte range (206 / 416), ETag + Last-Modified with 304, and HEAD.
 */
import { Readable } from 'node:stream'
import type { HttpContext } from '@adonisjs/core/http'
import { hooks } from '#extensions/hooks/main'
import type ShareFile from '#models/share_file'
import { openFileRange } from '#services/files/file_storage'
import {
  contentDisposition,
  etagMatches,
  fileEtag,
  parseRange,
} from '#services/files/http_file_headers'
import { paceTransfer } from '#services/files/transfer_gc_pacer'
import { mimeTypeOf } from '#services/files/upload_sessions'
import { shareErrors } from '#services/shares/share_errors'
import { zipFiles } from '#services/files/zip_stream'

/** Headers every download answer carries (files and zip). */
export function safeDownloadHeaders(ctx: HttpContext) {
  ctx.response.header('Content-Security-Policy', 'sandbox')
  ctx.response.header('X-Content-Type-Options', 'nosniff')
  ctx.response.header('Cache-Control', 'private, no-cache')
}

/** Ends the answer without a body (HEAD, 304). */
function endWithoutBody(ctx: HttpContext) {
  ctx.response.stream(Readable.from([]))
}

/** Whether the client's cached copy is current (If-None-Match first, then If-Modified-Since). */
function notModified(ctx: HttpContext, etag: string, modified: Date): boolean {
  const ifNoneMatch = ctx.request.header('if-none-match')
  if (ifNoneMatch) return etagMatches(ifNoneMatch, etag)
  const since = Date.parse(ctx.request.header('if-modified-since') ?? '')
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since
}

/**
 * Answers a download of `file` (which the caller may read). `inline` for
 * `download=false`. Runs `download:before_serve` (handlers add headers or
 * refuse); emits `share:downloaded` for GETs that send the body.
 * `countView` (a direct-link download) runs only once the answer will carry
 * the file: a 304 or a 416 sends no bytes, so it counts no view.
 */
export async function serveFile(
  ctx: HttpContext,
  shareId: string,
  file: ShareFile,
  inline: boolean,
  countView?: () => Promise<void>
) {
  const { response, request } = ctx
  const isHead = request.method() === 'HEAD'
  const served = await hooks.filter('download:before_serve', {
    shareId,
    fileId: file.id,
    fileName: file.name,
    headers: {},
  })
  const modified = file.updatedAt.toJSDate()
  const etag = fileEtag(file.id, file.size, modified.getTime())

  safeDownloadHeaders(ctx)
  for (const [name, value] of Object.entries(served.headers)) response.header(name, value)
  response.header('Accept-Ranges', 'bytes')
  response.header('ETag', etag)
  response.header('Last-Modified', modified.toUTCString())
  if (notModified(ctx, etag, modified)) {
    response.status(304)
    return endWithoutBody(ctx)
  }

  const ifRange = request.header('if-range')
  const range = parseRange(ifRange && ifRange !== etag ? undefined : request.header('range'), file.size)
  if (range.kind === 'unsatisfiable') {
    response.header('Content-Range', `bytes */${file.size}`)
    throw shareErrors.rangeNotSatisfiable()
  }
  if (countView) await countView()
  response.header('Content-Type', file.mimeType || mimeTypeOf(file.name))
  response.header('Content-Disposition', contentDisposition(file.name, inline ? 'inline' : 'attachment'))
  const start = range.kind === 'range' ? range.start : 0
  const end = range.kind === 'range' ? range.end : file.size - 1
  if (range.kind === 'range') {
    response.status(206)
    response.header('Content-Range', `bytes ${start}-${end}/${file.size}`)
  } else {
    response.status(200)
  }
  response.header('Content-Length', String(Math.max(end - start + 1, 0)))
  if (isHead || file.size === 0) return endWithoutBody(ctx)

  let source: Readable
  try {
    source = await openFileRange(file, start, end)
  } catch (error) {
    if ((error as { code?: string }).code === 'E_STORAGE_NOT_FOUND') throw shareErrors.fileNotFound()
    throw error
  }
  // Awaited before the body: a listener that stores a notification (webhook outbox) has stored it.
  await hooks.emit('share:downloaded', { shareId, fileId: file.id })
  response.stream(paceTransfer(source))
}

/**
 * Answers "download all" as a zip streamed at `level`:
 * `Content-Disposition: attachment; filename="<shareId>.zip"`. Runs
 * `download:before_serve` with `fileId: null`; emits `share:downloaded`.
 */
export async function serveZip(ctx: HttpContext, shareId: string, files: ShareFile[], level: number) {
  const fileName = `${shareId}.zip`
  const served = await hooks.filter('download:before_serve', { shareId, fileId: null, fileName, headers: {} })
  safeDownloadHeaders(ctx)
  for (const [name, value] of Object.entries(served.headers)) ctx.response.header(name, value)
  ctx.response.header('Content-Type', 'application/zip')
  ctx.response.header('Content-Disposition', contentDisposition(fileName))
  ctx.response.status(200)
  if (ctx.request.method() === 'HEAD') return endWithoutBody(ctx)
  await hooks.emit('share:downloaded', { shareId, fileId: null })
  ctx.response.stream(paceTransfer(zipFiles(files, level)))
}
