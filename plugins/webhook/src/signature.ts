/**
 * Request signing. The signed material is the `X-Tern-Timestamp` value, a
 * dot, and the raw request body, byte for byte:
 *
 * ```
 * X-Tern-Signature: sha256=<hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`)>
 * ```
 *
 * Signing the timestamp lets receivers refuse replays of an old request
 * (compare it with their clock); signing the raw body means they must verify
 * before parsing the JSON.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Prefix of the `X-Tern-Signature` value, naming the algorithm. */
export const SIGNATURE_PREFIX = 'sha256='

/** The string that is signed: `<timestamp>.<raw body>`. */
export function signedMaterial(timestamp: string | number, body: string): string {
  return `${timestamp}.${body}`
}

/** The `X-Tern-Signature` value of `body` sent at `timestamp` (Unix seconds) with `secret`. */
export function signWebhook(secret: string, timestamp: string | number, body: string): string {
  const digest = createHmac('sha256', secret)
    .update(signedMaterial(timestamp, body), 'utf8')
    .digest('hex')
  return `${SIGNATURE_PREFIX}${digest}`
}

/** Options of `verifyWebhookSignature`. */
export interface VerifyOptions {
  /** Largest accepted age (and clock skew) of the timestamp in seconds; default 300. 0 = not checked. */
  toleranceSeconds?: number
  /** The receiver's clock in Unix seconds (default now). */
  now?: number
}

/**
 * What a receiver does: true when `signature` is the signature of `body` at
 * `timestamp` with `secret` (constant-time comparison) and the timestamp is
 * within the tolerance.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
  options: VerifyOptions = {}
): boolean {
  const tolerance = options.toleranceSeconds ?? 300
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (!/^\d+$/.test(timestamp)) return false
  if (tolerance > 0 && Math.abs(now - Number(timestamp)) > tolerance) return false
  const expected = Buffer.from(signWebhook(secret, timestamp, body))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
