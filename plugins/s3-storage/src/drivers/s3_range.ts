/** Range reads of the S3 driver: a ranged GetObject's body cut to exactly the range asked for. */
import { Transform, type Readable } from 'node:stream'

/**
 * The body of a ranged GetObject cut to exactly `start..end`. Amazon S3
 * sends exactly the range; some S3-compatible servers ignore it (200, the
 * whole object, no Content-Range) or widen it (s3rver answers `bytes=0-0`
 * with the whole object). The body is passed through untouched when its
 * Content-Range is the one asked for (clamped to the object); otherwise the
 * bytes outside the range are dropped as they stream.
 */
export function exactRange(
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
