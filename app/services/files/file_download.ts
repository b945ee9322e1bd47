/**
 * Serving a share file (`GET /api/shares/:id/files/:fileId`) as plain data: the status, headers
 * and body stream of the answer, which the controller writes
 * (app/controllers/shares/download_response.ts). A file streams from its
 * disk (a range is read from its start on disks with ranged reads), with
 * Content-Type from the name, Content-Disposition (RFC 5987 names),
 * `Content-Security-Policy: sandbox`, `nosniff`, `Accept-Ranges`, a single
 * byte range (206 / 416), ETag + Last-Modified with 304, and HEAD.
 */
import type { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { hooks } from '#extensions/hooks/main'
import type ShareFile from '#models/share_file'
import FileStorage from '#services/files/file_storage'
import {
  contentDisposition,
  etagMatches,
  fileEtag,
  parseRange,
} from '#services/files/http_file_headers'
import { paceTransfer } from '#services/files/transfer_gc_pacer'
import { mimeTypeOf } from '#services/files/upload_sessions'
import { type ShareApiException, shareErrors } from '#services/shares/share_errors'
import { zipFiles } from '#services/files/zip_stream'

/** What a download request says that its answer depends on (header values as sent). */
export interface DownloadRequest {
  /** `GET` or `HEAD` (HEAD answers the same headers without a body). */
  method: string
  range?: string
  ifRange?: string
  ifNoneMatch?: string
  ifModifiedSince?: string
}

/**
 * A download answer. `headers` always go out; then either `refusal` is
 * thrown (416: its headers include `Content-Range: bytes * /size`), or
 * `status` is answered with `body` streamed (`null`: no body, the
 * Content-Length header stays as given).
 */
export interface DownloadAnswer {
  status: number
  headers: Record<string, string>
  body: Readable | null
  refusal?: ShareApiException
}

/** Headers every download answer carries (files and zip). */
const SAFE_DOWNLOAD_HEADERS = {
  'Content-Security-Policy': 'sandbox',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-cache',
}

/** Whether the client's cached copy is current (If-None-Match first, then If-Modified-Since). */
function notModified(request: DownloadRequest, etag: string, modified: Date): boolean {
  if (request.ifNoneMatch) return etagMatches(request.ifNoneMatch, etag)
  const since = Date.parse(request.ifModifiedSince ?? '')
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since
}

/**
 * Emits `share:downloaded` and runs `downloaded` (the owner's notice: owner
 * lookup, payload, routes, outbox insert); a failure is logged and does not
 * break the download. The callers await it before the body: running it while
 * the body streamed let a client that had read Content-Length
 * bytes finish before the notice was stored, even with the stream's end held
 * back (`paceTransfer` still waits for it).
 */
function announceDownload(
  shareId: string,
  fileId: string | null,
  downloaded?: () => Promise<void>
): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      await hooks.emit('share:downloaded', { shareId, fileId })
      await downloaded?.()
    })
    .catch((error) =>
      logger.error({ err: error, shareId, fileId }, 'could not announce a download')
    )
}

/** Builds download answers of share files and zips; the caller has checked access. */
@inject()
export default class FileDownloadService {
  constructor(private storage: FileStorage) {}

  /**
   * The answer to a download of `file`; `inline` for `download=false`. Runs
   * `download:before_serve` (handlers add headers or refuse); emits
   * `share:downloaded` and runs `downloaded` (the notification) for GETs
   * that send the body, before it (`announceDownload`). `countView` (a direct-link download) runs only once
   * the answer will carry the file: a 304 or a 416 sends no bytes, so it
   * counts no view. Throws 404 when the stored bytes are gone.
   */
  async file(
    shareId: string,
    file: ShareFile,
    request: DownloadRequest & { inline: boolean },
    countView?: () => Promise<void>,
    downloaded?: () => Promise<void>
  ): Promise<DownloadAnswer> {
    const served = await hooks.filter('download:before_serve', {
      shareId,
      fileId: file.id,
      fileName: file.name,
      headers: {},
    })
    const modified = file.updatedAt.toJSDate()
    const etag = fileEtag(file.id, file.size, modified.getTime())
    const headers: Record<string, string> = {
      ...SAFE_DOWNLOAD_HEADERS,
      ...served.headers,
      'Accept-Ranges': 'bytes',
      'ETag': etag,
      'Last-Modified': modified.toUTCString(),
    }
    if (notModified(request, etag, modified)) return { status: 304, headers, body: null }

    const useRange = !request.ifRange || request.ifRange === etag
    const range = parseRange(useRange ? request.range : undefined, file.size)
    if (range.kind === 'unsatisfiable') {
      headers['Content-Range'] = `bytes */${file.size}`
      return { status: 416, headers, body: null, refusal: shareErrors.rangeNotSatisfiable() }
    }
    if (countView) await countView()
    headers['Content-Type'] = file.mimeType || mimeTypeOf(file.name)
    headers['Content-Disposition'] = contentDisposition(
      file.name,
      request.inline ? 'inline' : 'attachment'
    )
    const start = range.kind === 'range' ? range.start : 0
    const end = range.kind === 'range' ? range.end : file.size - 1
    if (range.kind === 'range') headers['Content-Range'] = `bytes ${start}-${end}/${file.size}`
    headers['Content-Length'] = String(Math.max(end - start + 1, 0))
    const status = range.kind === 'range' ? 206 : 200
    if (request.method === 'HEAD' || file.size === 0) return { status, headers, body: null }

    let source: Readable
    try {
      source = await this.storage.openRange(file, start, end)
    } catch (error) {
      if ((error as { code?: string }).code === 'E_STORAGE_NOT_FOUND')
        throw shareErrors.fileNotFound()
      throw error
    }
    // Awaited before the body: a client that has read Content-Length bytes is done before
    // the stream's end, so holding back only the end did not make "downloaded" mean "announced".
    const announced = announceDownload(shareId, file.id, downloaded)
    await announced
    return { status, headers, body: paceTransfer(source, announced) }
  }

  /**
   * The answer to "download all": a zip streamed at `level`, named
   * `<shareId>.zip` (attachment). Runs `download:before_serve` with
   * `fileId: null`; emits `share:downloaded` and runs `downloaded` for a GET.
   */
  async zip(
    shareId: string,
    files: ShareFile[],
    level: number,
    method: string,
    downloaded?: () => Promise<void>
  ): Promise<DownloadAnswer> {
    const fileName = `${shareId}.zip`
    const served = await hooks.filter('download:before_serve', {
      shareId,
      fileId: null,
      fileName,
      headers: {},
    })
    const headers: Record<string, string> = {
      ...SAFE_DOWNLOAD_HEADERS,
      ...served.headers,
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition(fileName),
    }
    if (method === 'HEAD') return { status: 200, headers, body: null }
    const announced = announceDownload(shareId, null, downloaded)
    await announced
    return { status: 200, headers, body: paceTransfer(await zipFiles(files, level), announced) }
  }
}
