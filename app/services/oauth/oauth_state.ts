/**
 * The one-time values of a social sign-in, kept between the redirect to the
 * provider and its callback in the encrypted, HttpOnly cookie
 * `oauth_<provider>_state` (spec/api.md §2): the `state` echoed by the
 * provider, the PKCE verifier and the OIDC nonce. It lives 10 minutes; a
 * callback without it answers `expired_token`, one whose `state` differs
 * answers `invalid_token`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { configService } from '#services/config/config_service'

/** How long a started sign-in may take, in seconds. */
export const STATE_COOKIE_MAX_AGE_SECONDS = 600

/** Path of the state cookie (sent to the callback only). */
export const STATE_COOKIE_PATH = '/api/oauth/callback'

/** What the state cookie holds. */
export interface PendingAuthorization {
  state: string
  codeVerifier: string
  nonce: string
}

/** The name of the state cookie of `provider`. */
export function stateCookieName(provider: string): string {
  return `oauth_${provider}_state`
}

/** New random state, PKCE verifier and nonce. */
export function newPendingAuthorization(): PendingAuthorization {
  return {
    state: randomBytes(24).toString('base64url'),
    codeVerifier: randomBytes(48).toString('base64url'),
    nonce: randomBytes(24).toString('base64url'),
  }
}

/** The PKCE S256 challenge of a verifier. */
export function codeChallengeOf(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url')
}

/** Writes the state cookie of `provider`. */
export async function writeStateCookie(ctx: HttpContext, provider: string, pending: PendingAuthorization) {
  ctx.response.encryptedCookie(stateCookieName(provider), pending, {
    path: STATE_COOKIE_PATH,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET from another site.
    sameSite: 'lax',
    secure: await configService.get('general.secureCookies'),
    maxAge: STATE_COOKIE_MAX_AGE_SECONDS,
  })
}

/** Reads the state cookie of `provider` (null when missing or tampered with) and clears it. */
export function takeStateCookie(ctx: HttpContext, provider: string): PendingAuthorization | null {
  const name = stateCookieName(provider)
  const value = ctx.request.encryptedCookie(name) as Partial<PendingAuthorization> | null | undefined
  ctx.response.clearCookie(name, { path: STATE_COOKIE_PATH })
  if (!value || typeof value !== 'object') return null
  const { state, codeVerifier, nonce } = value
  if (typeof state !== 'string' || typeof codeVerifier !== 'string' || typeof nonce !== 'string') return null
  return { state, codeVerifier, nonce }
}

/** Constant-time comparison of the returned `state` with the stored one. */
export function sameState(expected: string, received: unknown): boolean {
  if (typeof received !== 'string') return false
  const a = Buffer.from(expected)
  const b = Buffer.from(received)
  return a.length === b.length && timingSafeEqual(a, b)
}
