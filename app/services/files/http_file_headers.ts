/**
 * Pure HTTP helpers of downloads: Content-Disposition with RFC 5987 names
 * (`content-disposition`), single byte ranges (RFC 9110 §14, `range-parser`),
 * ETags and a stream window.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { encodeExtended } from 'content-disposition'
import { parse as parseRangeHeader } from 'range-parser'

// eslint-disable-next-line no-control-regex -- matches the control characters a header value must not carry
const CONTROL = /[\x00-\x1f\x7f]/g

/**
 * `attachment; filename="a.txt"` (or `inline`), the name always quoted and
 * kept whole (a folder upload's `photos/2024/a.jpg` stays apart from
 * `a.jpg`). Non-ASCII names get an ASCII fallback (`_` for each other
 * character) plus `filename*=UTF-8''<percent-encoded>` (RFC 8187, encoded by
 * `content-disposition`, whose `create()` either strips folders (1.x) or
 * leaves token names unquoted (3.x)). Control characters never reach the
 * header.
 */
export function contentDisposition(
  name: string,
  type: 'attachment' | 'inline' = 'attachment'
): string {
  const clean = name.replace(CONTROL, '_')
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`
  if (/^[\x20-\x7e]*$/.test(clean)) return `${type}; filename=${quoted(clean)}`
  return `${type}; filename=${quoted(clean.replace(/[^\x20-\x7e]/g, '_'))}; filename*=${encodeExtended(clean)}`
}

/** The outcome of a `Range` header for a representation of `size` bytes. */
export type ByteRange =
  { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' }

/**
 * Reads a `Range` header as one byte range. Several ranges (no
 * multipart/byteranges answers), other units and malformed or reversed
 * ranges are ignored (`none`: serve the whole file, as RFC 9110 allows); a
 * range starting at or after the end, a zero suffix, or any range of an empty
 * file is `unsatisfiable`, however large its first position. Ends and
 * suffixes past the end are clamped to it.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header || header.includes(',')) return { kind: 'none' }
  const parsed = parseRangeHeader(size, header)
  if (parsed.type.trim() !== 'bytes' || parsed.code & 1) return { kind: 'none' }
  const [range] = parsed.ranges
  if (!range) return { kind: 'unsatisfiable' }
  return { kind: 'range', start: range.start, end: range.end }
}

/** A strong ETag for a stored file version. */
export function fileEtag(fileId: string, size: number, modifiedMs: number): string {
  return `"${createHash('sha1').update(`${fileId}:${size}:${modifiedMs}`).digest('base64url')}"`
}

/** True when an `If-None-Match` header matches `etag` (or is `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value === etag || value === `W/${etag}`
  })
}

/**
 * Bytes `start..end` (inclusive) of `source`; the source is destroyed as
 * soon as the window is passed, so a short range never reads the whole file.
 */
export function byteWindow(source: Readable, start: number, end: number): Readable {
  return Readable.from(
    (async function* () {
      let position = 0
      for await (const chunk of source as AsyncIterable<Buffer>) {
        const from = position
        position += chunk.length
        const sliceStart = Math.max(start - from, 0)
        const sliceEnd = Math.min(end + 1 - from, chunk.length)
        if (sliceEnd > sliceStart) yield chunk.subarray(sliceStart, sliceEnd)
        if (position > end) break
      }
    })(),
    { objectMode: false }
  )
}
