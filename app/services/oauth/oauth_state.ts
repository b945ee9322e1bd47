/**
 * The one-time values of a social sign-in, kept between the redirect to the
 * provider and its callback in the encrypted, HttpOnly cookie
 * `oauth_<provider>_state`: the `state` echoed by the
 * provider, the PKCE verifier and the OIDC nonce. It lives 10 minutes; a
 * callback without it answers `expired_token`, one whose `state` differs
 * answers `invalid_token`. The cookie itself is HTTP: see
 * #controllers/oauth/state_cookie; the driver gets the values through
 * #controllers/oauth/ally_driver (which derives the S256 challenge).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'

/** What the state cookie holds. */
export interface PendingAuthorization {
  state: string
  codeVerifier: string
  nonce: string
}

/** New random state, PKCE verifier and nonce. */
export function newPendingAuthorization(): PendingAuthorization {
  return {
    state: randomBytes(24).toString('base64url'),
    codeVerifier: randomBytes(48).toString('base64url'),
    nonce: randomBytes(24).toString('base64url'),
  }
}

/** Constant-time comparison of the returned `state` with the stored one. */
export function sameState(expected: string, received: unknown): boolean {
  if (typeof received !== 'string') return false
  const a = Buffer.from(expected)
  const b = Buffer.from(received)
  return a.length === b.length && timingSafeEqual(a, b)
}
