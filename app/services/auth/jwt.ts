/**
 * Minimal HS256 JSON Web Tokens on node:crypto (no dependency): enough for
 * the access token and the share tokens of the API contract.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Claims of a JWT. `iat`/`exp` are seconds since the epoch. */
export type JwtPayload = Record<string, unknown> & { iat?: number; exp?: number }

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

function signature(input: string, secret: string): string {
  return createHmac('sha256', secret).update(input).digest('base64url')
}

/** Signs `payload` with HS256. */
export function signJwt(payload: JwtPayload, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  const input = `${HEADER}.${body}`
  return `${input}.${signature(input, secret)}`
}

/**
 * Verifies an HS256 JWT: shape, `alg` HS256 (no "none", no other algorithm),
 * signature (constant time) and, when present, `exp` (> now) and `nbf`.
 * Returns the payload, or null for anything invalid or expired.
 * `nowSeconds` is for tests.
 */
export function verifyJwt<T extends JwtPayload = JwtPayload>(
  token: string,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000)
): T | null {
  if (typeof token !== 'string') return null
  const parts = token.split('.')
  if (parts.length !== 3) return null
  const [header, body, sig] = parts
  try {
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))
    if (parsedHeader?.alg !== 'HS256') return null
    const expected = Buffer.from(signature(`${header}.${body}`, secret))
    const given = Buffer.from(sig)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null
    if (payload.exp !== undefined && !(typeof payload.exp === 'number' && payload.exp > nowSeconds)) {
      return null
    }
    if (payload.nbf !== undefined && !(typeof payload.nbf === 'number' && payload.nbf <= nowSeconds)) {
      return null
    }
    return payload as T
  } catch {
    return null
  }
}
