/**
 * The `reverse_share_token` cookie (named as Pingvin did): how `POST /api/shares`
 * learns that a share is uploaded through a reverse share.
 *
 * Pingvin's client sets it itself (Path `/`, a session cookie) after
 * `GET /api/reverseShares/:token`; Tern's server sets it too, so its own pages
 * never handle the token in script. To keep the cookie from leaking into a
 * later, ordinary upload of the same browser:
 *
 * - the server's cookie is scoped to `Path=/api/shares` (only the shares API
 *   ever sees it), HttpOnly, `SameSite=Strict`, and lives at most
 *   `REVERSE_SHARE_COOKIE_MAX_AGE` (never past the reverse share's expiry);
 * - it is honoured only while the reverse share is live (known, not expired,
 *   uses left); an invalid one answers 403 "Reverse share token not found"
 *   (Pingvin's status) and is cleared, so the next attempt is an ordinary upload;
 * - it is cleared (both paths, Pingvin's too) as soon as a share was created
 *   through it: one cookie, one share;
 * - the ordinary upload page clears it when it is rendered.
 *
 * Request-bound, so it lives with the controllers: the services and the
 * `share:before_authorize_create` hook only ever see the token's value.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type ReverseShare from '#models/reverse_share'
import { requestIsHttps, secureCookies } from '#http/cookie_security'
import { ReverseShareTokenNotFoundException } from '#services/reverse_shares/reverse_share_errors'

/** Name of the cookie. */
export const REVERSE_SHARE_COOKIE = 'reverse_share_token'

/** Path of the cookie the server sets: only the shares API receives it. */
export const REVERSE_SHARE_COOKIE_PATH = '/api/shares'

/** Longest life of the server's cookie, in seconds (one hour). */
export const REVERSE_SHARE_COOKIE_MAX_AGE = 60 * 60

/**
 * The token the request carries in `reverse_share_token`, or null when it has
 * none. A value of the wrong shape is returned as is (it is then "not found").
 */
export function reverseShareTokenOf(ctx: HttpContext): string | null {
  const value = ctx.request.plainCookie(REVERSE_SHARE_COOKIE, { encoded: false })
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * Sets the cookie for `reverseShare` (see the module comment for its
 * attributes). Call it right before the browser creates a share through the
 * reverse share: `GET /api/reverseShares/:token` does.
 */
export async function setReverseShareCookie(
  ctx: HttpContext,
  reverseShare: ReverseShare
): Promise<void> {
  let maxAge = REVERSE_SHARE_COOKIE_MAX_AGE
  if (reverseShare.shareExpiration) {
    const left = Math.floor(reverseShare.shareExpiration.diffNow('seconds').seconds)
    maxAge = Math.max(1, Math.min(maxAge, left))
  }
  ctx.response.plainCookie(REVERSE_SHARE_COOKIE, reverseShare.token, {
    encode: false,
    httpOnly: true,
    sameSite: 'strict',
    path: REVERSE_SHARE_COOKIE_PATH,
    maxAge,
    secure: await secureCookies(ctx),
  })
}

/**
 * Clears the cookie on both paths it may have been set on (the server's and
 * Pingvin's client's `/`). Unconditional: a page outside `/api/shares` does
 * not receive the server's cookie, yet must be able to drop it.
 */
export function clearReverseShareCookie(ctx: HttpContext): void {
  const secure = requestIsHttps(ctx)
  ctx.response.clearCookie(REVERSE_SHARE_COOKIE, { path: REVERSE_SHARE_COOKIE_PATH, secure })
  ctx.response.clearCookie(REVERSE_SHARE_COOKIE, { path: '/', secure })
}

/**
 * Runs a share creation (`POST /api/shares`) with the request's reverse-share
 * token (null without the cookie) and keeps the cookie honest: cleared once a
 * share was created through it (one cookie, one share) and when the token is
 * refused as dead (403), so the next attempt is an ordinary upload. Any other
 * failure (400: id in use, validation...) keeps it, so the uploader can retry.
 */
export async function creatingThroughReverseShare<
  Created extends { reverseShareId: string | null },
>(
  ctx: HttpContext,
  create: (reverseShareToken: string | null) => Promise<Created>
): Promise<Created> {
  const token = reverseShareTokenOf(ctx)
  try {
    const created = await create(token)
    if (created.reverseShareId) clearReverseShareCookie(ctx)
    return created
  } catch (error) {
    if (token !== null && error instanceof ReverseShareTokenNotFoundException)
      clearReverseShareCookie(ctx)
    throw error
  }
}
