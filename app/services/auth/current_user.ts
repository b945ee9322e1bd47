/**
 * Who is calling:
 * - the user of a valid `access_token` JWT, sent either as the
 *   `access_token` cookie (plain, not encrypted: the browser client decodes
 *   it) or as `Authorization: Bearer <jwt>`. A JWT issued for a session
 *   (`refreshTokenId` set) is accepted only while that session exists, so
 *   sign-out, password changes and user deletion end it at once;
 * - or the owner of a personal API token sent as `Authorization: Bearer
 *   tern_...` (looked up by digest; expired or revoked tokens are refused).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import User from '#models/user'
import ApiToken from '#models/api_token'
import RefreshToken from '#models/refresh_token'
import { accessTokenService, type AccessTokenClaims } from '#services/auth/access_token_service'
import { hashToken, sqlDateTime } from '#services/auth/tokens'
import { ForbiddenException } from '#services/auth/auth_errors'
import { configService } from '#services/config/config_service'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The signed-in user; set by the `auth` and `admin` middleware. */
    user?: User
  }
}

/** Name of the access-token cookie. */
export const ACCESS_TOKEN_COOKIE = 'access_token'

/** Prefix of personal API tokens (`tern_<random>`). */
export const API_TOKEN_PREFIX = 'tern_'

/** The outcome of a successful authentication. */
export interface Authentication {
  user: User
  /** The access token's claims; null when authenticated by a personal API token. */
  claims: AccessTokenClaims | null
  /** The personal API token used, or null for an access token (JWT). */
  apiToken: ApiToken | null
  /** Where the token came from. Cookie-authenticated requests get the cross-site check. */
  via: 'cookie' | 'bearer'
}

/** lastUsedAt is written at most once per this many seconds per token. */
const LAST_USED_RESOLUTION_SECONDS = 60

const resolved = new WeakMap<HttpContext, Promise<Authentication | null>>()

function bearerToken(ctx: HttpContext): string | null {
  const header = ctx.request.header('authorization')
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match ? match[1] : null
}

/** The user of a valid access token (JWT) whose session, if any, is still live. */
async function fromAccessToken(token: string): Promise<{ user: User; claims: AccessTokenClaims } | null> {
  const claims = await accessTokenService.verify(token)
  if (!claims) return null
  if (claims.refreshTokenId) {
    const session = await RefreshToken.query()
      .where('id', claims.refreshTokenId)
      .where('userId', claims.sub)
      .where('expiresAt', '>', sqlDateTime())
      .first()
    if (!session) return null
  }
  const user = await User.find(claims.sub)
  return user ? { user, claims } : null
}

/** The owner of a live personal API token (and the token), updating its lastUsedAt. */
async function fromApiToken(token: string): Promise<{ user: User; apiToken: ApiToken } | null> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null
  const apiToken = await ApiToken.findBy('tokenHash', hashToken(token))
  if (!apiToken) return null
  const now = DateTime.utc()
  if (apiToken.expiresAt && apiToken.expiresAt <= now) return null
  const user = await User.find(apiToken.userId)
  if (!user) return null
  if (!apiToken.lastUsedAt || now.diff(apiToken.lastUsedAt, 'seconds').seconds >= LAST_USED_RESOLUTION_SECONDS) {
    apiToken.lastUsedAt = now
    await apiToken.save()
  }
  return { user, apiToken }
}

async function resolve(ctx: HttpContext): Promise<Authentication | null> {
  const bearer = bearerToken(ctx)
  if (bearer) {
    if (bearer.split('.').length === 3) {
      const found = await fromAccessToken(bearer)
      if (found) return { ...found, apiToken: null, via: 'bearer' }
    } else {
      const found = await fromApiToken(bearer)
      if (found) return { ...found, claims: null, via: 'bearer' }
    }
  }
  const cookie = ctx.request.plainCookie(ACCESS_TOKEN_COOKIE, { encoded: false })
  if (cookie && typeof cookie === 'string') {
    const found = await fromAccessToken(cookie)
    if (found) return { ...found, apiToken: null, via: 'cookie' }
  }
  return null
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
  return (await authenticate(ctx))?.user ?? null
}

/**
 * Whether the browser says the request comes from another site:
 * `Sec-Fetch-Site: cross-site`, or an `Origin` whose host is neither the
 * request's `Host` nor the host of `general.appUrl` (`Origin: null` counts as
 * foreign). Requests without those headers (curl, scripts) are not cross-site.
 */
export async function isCrossSiteRequest(ctx: HttpContext): Promise<boolean> {
  if (ctx.request.header('sec-fetch-site') === 'cross-site') return true
  const origin = ctx.request.header('origin')
  if (!origin) return false
  let originHost: string
  try {
    originHost = new URL(origin).host
  } catch {
    return true
  }
  if (originHost === ctx.request.header('host')) return false
  try {
    return originHost !== new URL(await configService.get('general.appUrl')).host
  } catch {
    return true
  }
}

/**
 * For public routes that act on the session cookies (sign-out, refresh):
 * 403 when the request carries a session cookie and the browser says it
 * comes from another site. Requests authenticated by a Bearer header, or
 * without cookies, are never refused for that.
 */
export async function refuseCrossSiteCookieRequest(ctx: HttpContext): Promise<void> {
  if (bearerToken(ctx)) return
  const cookies = ctx.request.cookiesList()
  const hasSessionCookie = ACCESS_TOKEN_COOKIE in cookies || 'refresh_token' in cookies
  if (hasSessionCookie && (await isCrossSiteRequest(ctx))) throw new ForbiddenException()
}
