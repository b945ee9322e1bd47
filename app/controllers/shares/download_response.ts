/**
 * The HTTP side of downloads: reads what FileDownloadService needs from the
 * request and writes the answer it built (headers, status, streamed body).
 */
import { Readable } from 'node:stream'
import type { HttpContext } from '@adonisjs/core/http'
import type { DownloadAnswer, DownloadRequest } from '#services/files/file_download'

/** The method and conditional/range headers of a download request. */
export function downloadRequestOf({ request }: HttpContext): DownloadRequest {
  return {
    method: request.method(),
    range: request.header('range'),
    ifRange: request.header('if-range'),
    ifNoneMatch: request.header('if-none-match'),
    ifModifiedSince: request.header('if-modified-since'),
  }
}

/**
 * Writes `answer`: its headers, then its refusal (thrown, for the exception
 * handler to render) or its status and body. A missing body is an empty
 * stream, so the Content-Length header of a HEAD answer stays as given.
 */
export function sendDownload({ response }: HttpContext, answer: DownloadAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) response.header(name, value)
  if (answer.refusal) throw answer.refusal
  response.status(answer.status)
  response.stream(answer.body ?? Readable.from([]))
}
