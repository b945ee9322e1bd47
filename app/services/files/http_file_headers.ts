/**
 * Pure HTTP helpers of downloads: Content-Disposition with RFC 5987 names,
 * single byte ranges (RFC 9110 §14), ETags and a stream window.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'

const CONTROL = /[\x00-\x1f\x7f]/g

/** Percent-encodes a name for `filename*=UTF-8''...` (RFC 5987 attr-char). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/**
 * `attachment; filename="a.txt"` (or `inline`). Non-ASCII names get an
 * ASCII fallback plus `filename*=UTF-8''<percent-encoded>`. Control
 * characters never reach the header.
 */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const clean = name.replace(CONTROL, '_')
  const quoted = (value: string) => value.replace(/[\\"]/g, (char) => `\\${char}`)
  if (/^[\x20-\x7e]*$/.test(clean)) return `${type}; filename="${quoted(clean)}"`
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_')
  return `${type}; filename="${quoted(fallback)}"; filename*=UTF-8''${encodeRfc5987(clean)}`
}

/** The outcome of a `Range` header for a representation of `size` bytes. */
export type ByteRange =
  | { kind: 'none' }
  | { kind: 'range'; start: number; end: number }
  | { kind: 'unsatisfiable' }

/**
 * Parses a single `bytes=` range. Several ranges, other units or malformed
 * values are ignored (`none`: serve the whole file, as RFC 9110 allows);
 * a range starting at or after the end is `unsatisfiable`, however large its
 * first position (compared as BigInt: `Number` would turn 2^64 into an
 * unsafe value and the range into `none`). Ends and suffixes past the end
 * are clamped to it.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'none' }
  const total = BigInt(size)
  if (match[1] === '') {
    const suffix = BigInt(match[2])
    if (suffix === 0n || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'range', start: suffix >= total ? 0 : Number(total - suffix), end: size - 1 }
  }
  const start = BigInt(match[1])
  const end = match[2] === '' ? null : BigInt(match[2])
  if (end !== null && end < start) return { kind: 'none' }
  if (start >= total) return { kind: 'unsatisfiable' }
  return { kind: 'range', start: Number(start), end: end === null || end >= total ? size - 1 : Number(end) }
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
