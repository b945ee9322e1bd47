/**
 * The state cookie of a social sign-in, `oauth_<provider>_state` (the name
 * Pingvin used): encrypted, HttpOnly, sent to the callback only, living 10 minutes. It
 * carries the `PendingAuthorization` of #services/oauth/oauth_state.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { PendingAuthorization } from '#services/oauth/oauth_state'
import { requestIsHttps, secureCookies } from '#http/cookie_security'

/** How long a started sign-in may take, in seconds. */
export const STATE_COOKIE_MAX_AGE_SECONDS = 600

/** Path of the state cookie (sent to the callback only). */
export const STATE_COOKIE_PATH = '/api/oauth/callback'

/** The name of the state cookie of `provider`. */
export function stateCookieName(provider: string): string {
  return `oauth_${provider}_state`
}

/** Writes the state cookie of `provider`. */
export async function writeStateCookie(
  ctx: HttpContext,
  provider: string,
  pending: PendingAuthorization
) {
  ctx.response.encryptedCookie(stateCookieName(provider), pending, {
    path: STATE_COOKIE_PATH,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET from another site.
    sameSite: 'lax',
    secure: await secureCookies(ctx),
    maxAge: STATE_COOKIE_MAX_AGE_SECONDS,
  })
}

/** Reads the state cookie of `provider` (null when missing or tampered with) and clears it. */
export function takeStateCookie(ctx: HttpContext, provider: string): PendingAuthorization | null {
  const name = stateCookieName(provider)
  const value = ctx.request.encryptedCookie(name) as
    Partial<PendingAuthorization> | null | undefined
  ctx.response.clearCookie(name, { path: STATE_COOKIE_PATH, secure: requestIsHttps(ctx) })
  if (!value || typeof value !== 'object') return null
  const { state, codeVerifier, nonce } = value
  if (typeof state !== 'string' || typeof codeVerifier !== 'string' || typeof nonce !== 'string')
    return null
  return { state, codeVerifier, nonce }
}
