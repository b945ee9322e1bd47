/**
 * Who is calling, for middleware and controllers: reads the request's
 * credentials (`Authorization: Bearer` header, `access_token` cookie) and
 * asks #services/auth/authentication_service who they name, once per
 * request. Also the cross-site checks of cookie-authenticated requests.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type User from '#models/user'
import AuthenticationService, { type Authentication } from '#services/auth/authentication_service'
import { ForbiddenException } from '#services/auth/auth_errors'
import { configValue } from '#services/config/config_service'
import {
  ACCESS_TOKEN_COOKIE,
  REFRESH_TOKEN_COOKIE,
  accessTokenCookieOf,
  bearerTokenOf,
} from '#http/session_cookies'

export type { Authentication }

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The signed-in user; set by the `auth` and `admin` middleware. */
    user?: User
  }
}

const resolved = new WeakMap<HttpContext, Promise<Authentication | null>>()

async function resolve(ctx: HttpContext): Promise<Authentication | null> {
  const bearer = bearerTokenOf(ctx)
  const cookie = accessTokenCookieOf(ctx)
  // A visitor without credentials is nobody: no need to build the service (and its dependencies) to say so.
  if (!bearer && !cookie) return null
  const service = await ctx.containerResolver.make(AuthenticationService)
  return service.authenticate({ bearer, cookie })
}

/**
 * Authenticates the request (once per request; later calls reuse the
 * result). Returns null when no valid token names an existing user.
 */
export function authenticate(ctx: HttpContext): Promise<Authentication | null> {
  let pending = resolved.get(ctx)
  if (!pending) {
    pending = resolve(ctx)
    resolved.set(ctx, pending)
  }
  return pending
}

/** The signed-in user, or null. Role flags come from the database, not from the token. */
export async function currentUser(ctx: HttpContext): Promise<User | null> {
  const authenticated = await authenticate(ctx)
  return authenticated?.user ?? null
}

/**
 * Whether the browser says the request comes from another site:
 * `Sec-Fetch-Site: cross-site`, or an `Origin` whose host is neither the
 * request's `Host` nor the host of `general.appUrl` (`Origin: null` counts as
 * foreign). Requests without those headers (curl, scripts) are not cross-site.
 */
export async function isCrossSiteRequest(ctx: HttpContext): Promise<boolean> {
  return (await crossSiteRefusal(ctx)) !== null
}

/**
 * The 403 of a request `isCrossSiteRequest` refuses, or null when it is not
 * cross-site. Its message says why, names the origin Tern expects and the
 * setting that changes it (`general.appUrl`): an operator whose reverse
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
