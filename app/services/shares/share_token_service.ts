/**
 * Share tokens (spec/api.md §1 and §4): an HS256 JWT per share with claims
 * `shareId`, `shareCreatedAt` and `exp` = the share's expiry (none for never),
 * sent as the HttpOnly session cookie `share_<id>_token`. Every token issued
 * counts one view, atomically against the view limit.
 */
import type { HttpContext } from '@adonisjs/core/http'
import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import type Share from '#models/share'
import ShareSecurity from '#models/share_security'
import { signJwt, verifyJwt, type JwtPayload } from '#services/auth/jwt'
import { INSTANCE_SECRETS, instanceSecretService } from '#services/auth/instance_secret_service'
import { rateLimiter } from '#services/auth/rate_limiter'
import { configService } from '#services/config/config_service'
import { shareErrors } from '#services/shares/share_errors'

/** How many share cookies one browser keeps at most (the newest win). */
export const MAX_SHARE_COOKIES = 10

const SHARE_COOKIE = /^share_(.+)_token$/

/** Claims of a share token. */
export type ShareTokenClaims = JwtPayload & {
  shareId: string
  shareCreatedAt: string
  iat: number
}

/** The cookie name of a share's token. */
export function shareCookieName(shareId: string): string {
  return `share_${shareId}_token`
}

/** The share's creation date as the token records it (second precision, all databases agree). */
function createdAtClaim(share: Share): string {
  return share.createdAt.toUTC().startOf('second').toISO()!
}

async function secret(): Promise<string> {
  return instanceSecretService.get(INSTANCE_SECRETS.jwt)
}

/** Signs a token for `share` (expiring with the share). */
export async function signShareToken(share: Share): Promise<string> {
  const claims: ShareTokenClaims = {
    shareId: share.id,
    shareCreatedAt: createdAtClaim(share),
    iat: Math.floor(Date.now() / 1000),
  }
  if (share.expiration) claims.exp = Math.floor(share.expiration.toSeconds())
  return signJwt({ ...claims }, await secret())
}

/** True when `token` is a valid, unexpired token of this very share (not of an earlier share with the same id). */
export async function verifyShareToken(share: Share, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || token === '') return false
  const claims = verifyJwt<ShareTokenClaims>(token, await secret())
  return Boolean(claims && claims.shareId === share.id && claims.shareCreatedAt === createdAtClaim(share))
}

/** True when the request carries a valid token cookie for `share`. */
export async function hasValidShareToken(ctx: HttpContext, share: Share): Promise<boolean> {
  return verifyShareToken(share, ctx.request.plainCookie(shareCookieName(share.id), { encoded: false }))
}

/**
 * Counts one view if the limit allows it, in one conditional UPDATE
 * (`views < max_views`), so concurrent visitors can never exceed it.
 * Returns false when the limit is reached.
 */
export async function countView(share: Share, maxViews: number | null): Promise<boolean> {
  const query = db.knexQuery().from('shares').where('id', share.id)
  if (maxViews !== null && maxViews !== undefined) query.where('views', '<', maxViews)
  const updated = await query.increment('views', 1)
  return Number(updated) > 0
}

/** The rate-limit action of share passwords (per IP, per share and IP, per share). */
export const SHARE_PASSWORD_ACTION = 'share-password'

/**
 * `POST /api/shares/:id/token`: checks the password (403
 * `share_password_required` / `wrong_password`) BEFORE the view limit (403
 * `share_max_views_exceeded`), counts the view and returns a new token.
 * With `ctx`, each password check is rate limited (429 with Retry-After):
 * the attempt is counted before the hash is compared, so parallel guesses
 * cannot outrun the limit, and a right password gives its points back.
 */
export async function issueShareToken(
  share: Share,
  password: string | null | undefined,
  ctx?: HttpContext
): Promise<string> {
  const security = await ShareSecurity.findBy('shareId', share.id)
  if (security?.password) {
    if (!password) throw shareErrors.passwordRequired()
    const attempt = ctx ? await rateLimiter.attempt(ctx, SHARE_PASSWORD_ACTION, share.id) : null
    if (!(await hash.verify(security.password, password))) throw shareErrors.wrongPassword()
    await attempt?.succeeded()
  }
  if (!(await countView(share, security?.maxViews ?? null))) throw shareErrors.maxViewsExceeded()
  return signShareToken(share)
}

/** `issueShareToken` behind the rate limit of password guesses (the route's entry point). */
export async function issueShareTokenLimited(
  ctx: HttpContext,
  share: Share,
  password: string | null | undefined
): Promise<string> {
  return issueShareToken(share, password, ctx)
}

/**
 * Sets the `share_<id>_token` cookie (HttpOnly, session) and clears the
 * oldest other share cookies so the browser keeps at most
 * `MAX_SHARE_COOKIES` of them.
 */
export async function setShareCookie(ctx: HttpContext, share: Share, token: string): Promise<void> {
  const secure = await configService.get('general.secureCookies')
  const others: { name: string; issuedAt: number }[] = []
  for (const name of Object.keys(parseCookieNames(ctx.request.header('cookie')))) {
    if (!SHARE_COOKIE.test(name) || name === shareCookieName(share.id)) continue
    const value = ctx.request.plainCookie(name, { encoded: false })
    const claims = typeof value === 'string' ? decodeClaims(value) : null
    others.push({ name, issuedAt: typeof claims?.iat === 'number' ? claims.iat : 0 })
  }
  others.sort((a, b) => b.issuedAt - a.issuedAt)
  for (const stale of others.slice(MAX_SHARE_COOKIES - 1)) {
    ctx.response.clearCookie(stale.name, { path: '/' })
  }
  ctx.response.plainCookie(shareCookieName(share.id), token, {
    encode: false,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: undefined,
  })
}

function parseCookieNames(header: string | undefined): Record<string, true> {
  const names: Record<string, true> = {}
  for (const part of (header ?? '').split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) names[name] = true
  }
  return names
}

function decodeClaims(token: string): { iat?: unknown } | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
  } catch {
    return null
  }
}
