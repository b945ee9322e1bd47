/**
 * The cross-site checks of cookie-authenticated requests: a browser sends
 * the `access_token` cookie (SameSite Lax) along with top-level requests
 * from other sites, so a change it authenticates must come from a page of
 * Tern. Asked by the `auth` middleware and the share routes for changes
 * authenticated by the cookie, and by sign-out and refresh, which act on
 * the session cookies (#auth/guards/pingvin_guard).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { ForbiddenException } from '#services/auth/auth_errors'
import { configValue } from '#services/config/config_service'
import {
  ACCESS_TOKEN_COOKIE,
  REFRESH_TOKEN_COOKIE,
  bearerTokenOf,
} from '#auth/guards/pingvin_guard'

/**
 * The 403 of a request the browser says comes from another site, or null
 * when it is not cross-site. Cross-site means `Sec-Fetch-Site: cross-site`,
 * or an `Origin` whose host is neither the request's `Host` nor the host of
 * `general.appUrl` (`Origin: null` counts as foreign); requests without
 * those headers (curl, scripts) are not cross-site. Its message says why,
 * names the origin Tern expects and the setting that changes it (`general.appUrl`): an operator whose reverse
 * proxy rewrites the Host header learns what to set. It names nothing the
 * caller could not know already: the expected origin is the public app URL,
 * the request's own Host (possibly an internal name set by a proxy) is never
 * repeated.
 */
export async function crossSiteRefusal(ctx: HttpContext): Promise<ForbiddenException | null> {
  const fetchSite = ctx.request.header('sec-fetch-site') === 'cross-site'
  const origin = ctx.request.header('origin')
  if (!fetchSite && !origin) return null
  const originUrl = origin ? urlOrNull(origin) : null
  if (!fetchSite && originUrl && originUrl.host === ctx.request.header('host')) return null
  const expected = urlOrNull(await configValue('general.appUrl'))
  if (!fetchSite && originUrl && expected && originUrl.host === expected.host) return null
  return new ForbiddenException(crossSiteMessage(fetchSite, originUrl, expected))
}

function urlOrNull(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

/** The message of `crossSiteRefusal`. */
function crossSiteMessage(fetchSite: boolean, origin: URL | null, expected: URL | null): string {
  const allowed = expected
    ? `${expected.origin} (the setting general.appUrl)`
    : 'the address in the setting general.appUrl, which is not a valid URL'
  if (fetchSite) {
    return (
      'Cross-site request refused: the browser reports that it comes from a page of another site' +
      ` (Sec-Fetch-Site: cross-site). Signed-in changes are accepted only from pages of ${allowed}.`
    )
  }
  const from =
    origin && origin.origin !== 'null'
      ? `it comes from ${origin.origin}`
      : 'its Origin header is not usable'
  return (
    `Cross-site request refused: ${from}, but signed-in changes are accepted only from ${allowed}` +
    ' or from the host the request was sent to. If you open Tern at that address, for example behind a' +
    ' reverse proxy that changes the Host header, set general.appUrl to it' +
    ' (Admin > Configuration > General > App URL).'
  )
}

/**
 * For public routes that act on the session cookies (sign-out, refresh):
 * 403 when the request carries a session cookie and the browser says it
 * comes from another site. Requests authenticated by a Bearer header, or
 * without cookies, are never refused for that.
 */
export async function refuseCrossSiteCookieRequest(ctx: HttpContext): Promise<void> {
  if (bearerTokenOf(ctx)) return
  const cookies = ctx.request.cookiesList()
  const hasSessionCookie = ACCESS_TOKEN_COOKIE in cookies || REFRESH_TOKEN_COOKIE in cookies
  if (!hasSessionCookie) return
  const refusal = await crossSiteRefusal(ctx)
  if (refusal) throw refusal
}
