/**
 * Who is calling: the user of a valid `access_token` JWT, sent either as the
 * `access_token` cookie (plain, not encrypted: the browser client decodes it)
 * or as `Authorization: Bearer <jwt>`.
 *
 * The full sign-in flows (refresh tokens, revocation, personal API tokens)
 * build on this in a later issue.
 */
import type { HttpContext } from '@adonisjs/core/http'
import User from '#models/user'
import { accessTokenService, type AccessTokenClaims } from '#services/auth/access_token_service'
import { configService } from '#services/config/config_service'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The signed-in user; set by the `auth` and `admin` middleware. */
    user?: User
  }
}

/** Name of the access-token cookie. */
export const ACCESS_TOKEN_COOKIE = 'access_token'

/** The outcome of a successful authentication. */
export interface Authentication {
  user: User
  claims: AccessTokenClaims
  /** Where the token came from. Cookie-authenticated requests get the cross-site check. */
  via: 'cookie' | 'bearer'
}

const resolved = new WeakMap<HttpContext, Promise<Authentication | null>>()

function bearerToken(ctx: HttpContext): string | null {
  const header = ctx.request.header('authorization')
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match ? match[1] : null
}

async function resolve(ctx: HttpContext): Promise<Authentication | null> {
  const candidates: [string | null | undefined, Authentication['via']][] = [
    [bearerToken(ctx), 'bearer'],
    [ctx.request.plainCookie(ACCESS_TOKEN_COOKIE, { encoded: false }), 'cookie'],
  ]
  for (const [token, via] of candidates) {
    if (!token || typeof token !== 'string') continue
    const claims = await accessTokenService.verify(token)
    if (!claims) continue
    const user = await User.find(claims.sub)
    if (user) return { user, claims, via }
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
