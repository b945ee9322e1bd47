/**
 * HS256 JSON Web Tokens through `jose`: the access token and the share tokens
 * of the HTTP API (docs/api.md). Only HS256 is accepted (no "none", no RS256 or other
 * algorithm keyed with the secret); the secret's UTF-8 bytes are the HMAC key.
 */
import { SignJWT, jwtVerify } from 'jose'

/** Claims of a JWT. `iat`/`exp` are seconds since the epoch. */
export type JwtPayload = Record<string, unknown> & { iat?: number; exp?: number }

const ALGORITHM = 'HS256'

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret)
}

/**
 * Signs `payload` with HS256 (header `{"alg":"HS256","typ":"JWT"}`). The claims
 * are written as given, in their order: `iat`/`exp` are not added.
 */
export function signJwt(payload: JwtPayload, secret: string): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' }).sign(key(secret))
}

/**
 * Verifies an HS256 JWT: shape, `alg` HS256, signature and, when present,
 * `exp` (> now) and `nbf` (<= now). Resolves to the payload, or null for
 * anything invalid or expired. `nowSeconds` is the clock (tests; 0 accepts
 * any expired token that is otherwise valid).
 */
export async function verifyJwt<T extends JwtPayload = JwtPayload>(
  token: string,
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000)
): Promise<T | null> {
  if (typeof token !== 'string') return null
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      currentDate: new Date(nowSeconds * 1000),
    })
    return payload as T
  } catch {
    return null
  }
}
