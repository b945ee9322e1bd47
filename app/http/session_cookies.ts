/**
 * The cookies of a sign-in session, the HTTP side of
 * #services/auth/session_service: `access_token` (Path `/`, SameSite Lax,
 * readable by scripts) and `refresh_token` (Path `/api/auth/token`,
 * HttpOnly, SameSite Strict). Plain cookies (no signing or encryption) so
 * Pingvin clients can read them.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { DateTime } from 'luxon'
import type { SessionTokens } from '#services/auth/session_service'
import type { SignInDevice } from '#services/auth/known_devices'
import { requestIsHttps, secureCookies } from '#http/cookie_security'

/** Name of the access-token cookie. */
export const ACCESS_TOKEN_COOKIE = 'access_token'

/** Name of the refresh-token cookie. */
export const REFRESH_TOKEN_COOKIE = 'refresh_token'

/** Path of the refresh-token cookie: the browser sends it to the refresh route only. */
export const REFRESH_TOKEN_COOKIE_PATH = '/api/auth/token'

function secondsUntil(when: DateTime): number {
  return Math.max(0, Math.floor(when.diffNow('seconds').seconds))
}

/**
 * Writes both cookies of a session, Secure over HTTPS or with
 * `general.secureCookies` (cookie_security), both living until the session ends.
 */
export async function setSessionCookies(
  ctx: HttpContext,
  tokens: Pick<SessionTokens, 'accessToken' | 'refreshToken' | 'expiresAt'>
): Promise<void> {
  const secure = await secureCookies(ctx)
  const maxAge = secondsUntil(tokens.expiresAt)
  ctx.response.plainCookie(ACCESS_TOKEN_COOKIE, tokens.accessToken, {
    encode: false,
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure,
    maxAge,
  })
  ctx.response.plainCookie(REFRESH_TOKEN_COOKIE, tokens.refreshToken, {
    encode: false,
    path: REFRESH_TOKEN_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge,
  })
}

/** Clears both session cookies (same names and paths as when they were set). */
export function clearSessionCookies(ctx: HttpContext): void {
  const secure = requestIsHttps(ctx)
  ctx.response.clearCookie(ACCESS_TOKEN_COOKIE, { path: '/', secure })
  ctx.response.clearCookie(REFRESH_TOKEN_COOKIE, { path: REFRESH_TOKEN_COOKIE_PATH, secure })
}

/** The `access_token` cookie of the request (plain), or null. */
export function accessTokenCookieOf(ctx: HttpContext): string | null {
  const value = ctx.request.plainCookie(ACCESS_TOKEN_COOKIE, { encoded: false })
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The `refresh_token` cookie of the request (plain), or null. */
export function refreshTokenCookieOf(ctx: HttpContext): string | null {
  const value = ctx.request.plainCookie(REFRESH_TOKEN_COOKIE, { encoded: false })
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The device a sign-in comes from: its `User-Agent` and address (KnownDevices). */
export function signInDeviceOf(ctx: HttpContext): SignInDevice {
  return { userAgent: ctx.request.header('user-agent') ?? null, ip: ctx.request.ip() || null }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerTokenOf(ctx: HttpContext): string | null {
  const header = ctx.request.header('authorization')
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match ? match[1] : null
}
