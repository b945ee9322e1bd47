/**
 * Who owns a share: its creator, an admin, or, for a visitor's share (no
 * creator), the browser that created it. That browser holds the HttpOnly
 * ownership cookie `tern_share_owner` (a random token); the share stores
 * only its SHA-256 digest (`shares.owner_token_hash`).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import type Share from '#models/share'
import type User from '#models/user'
import { authenticate } from '#services/auth/current_user'
import { requireUser } from '#middleware/auth_middleware'
import { configService } from '#services/config/config_service'
import { shareErrors } from '#services/shares/share_errors'
import { shareSeams } from '#services/shares/share_seams'
import type { ShareCreator } from '#services/shares/share_service'

/** Name of the ownership cookie of visitors' shares (not `share_<id>_token`-shaped on purpose). */
export const OWNER_COOKIE = 'tern_share_owner'

/** Lifetime of the ownership cookie: 400 days, the longest browsers keep a cookie. */
const OWNER_COOKIE_MAX_AGE = 400 * 24 * 60 * 60

/** Who is calling a share route. */
export interface ShareCaller {
  /** The signed-in user, or null for a visitor. */
  user: User | null
  /** Digest of the browser's ownership cookie, or null when it has none. */
  ownerTokenHash: string | null
}

/** SHA-256 hex digest of an ownership token. */
export function hashOwnerToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function ownerToken(ctx: HttpContext): string | null {
  const token = ctx.request.plainCookie(OWNER_COOKIE, { encoded: false })
  return typeof token === 'string' && /^[A-Za-z0-9_-]{32,128}$/.test(token) ? token : null
}

/**
 * The caller: the signed-in user (a cookie-authenticated mutating request
 * from another site is refused with 403, as on every `user` route) and the
 * digest of the browser's ownership cookie.
 */
export async function shareCaller(ctx: HttpContext): Promise<ShareCaller> {
  const user = (await authenticate(ctx)) ? await requireUser(ctx) : null
  const token = ownerToken(ctx)
  return { user, ownerTokenHash: token ? hashOwnerToken(token) : null }
}

/**
 * The digest to store on a visitor's new share: the browser's existing
 * ownership token is reused (one browser owns all its shares), else a new
 * random one is set as an HttpOnly cookie.
 */
export async function ensureOwnerCookie(ctx: HttpContext): Promise<string> {
  let token = ownerToken(ctx)
  if (!token) {
    token = randomBytes(32).toString('base64url')
    ctx.response.plainCookie(OWNER_COOKIE, token, {
      encode: false,
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: OWNER_COOKIE_MAX_AGE,
      secure: await configService.get('general.secureCookies'),
    })
  }
  return hashOwnerToken(token)
}

function sameDigest(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)]
  return left.length === right.length && timingSafeEqual(left, right)
}

/** True when the caller owns the share: creator, admin, or the browser owning a visitor's share. */
export function ownsShare(share: Share, caller: ShareCaller): boolean {
  if (caller.user?.isAdmin) return true
  if (share.creatorId) return caller.user?.id === share.creatorId
  return Boolean(
    share.ownerTokenHash && caller.ownerTokenHash && sameDigest(share.ownerTokenHash, caller.ownerTokenHash)
  )
}

/**
 * Throws unless the caller owns the share: 401 when a signed-in user's
 * share is called without signing in, else 403.
 */
export function assertOwner(share: Share, caller: ShareCaller): void {
  if (ownsShare(share, caller)) return
  if (!caller.user && share.creatorId) throw shareErrors.unauthorized()
  throw shareErrors.forbidden()
}

/**
 * Who may create a share (`POST /api/shares`): a signed-in user; the holder
 * of a valid reverse-share token (seam, issue 5); a visitor when
 * `share.allowUnauthenticatedShares` is on (the share then belongs to this
 * browser's ownership cookie). 401 otherwise.
 */
export async function shareCreator(ctx: HttpContext): Promise<ShareCreator> {
  const caller = await shareCaller(ctx)
  const reverseShare = await shareSeams.reverseShareForCreation(ctx)
  if (!caller.user && !reverseShare && !(await configService.get('share.allowUnauthenticatedShares'))) {
    throw shareErrors.unauthorized()
  }
  const ownerTokenHash = caller.user ? null : await ensureOwnerCookie(ctx)
  return { user: caller.user, ownerTokenHash, reverseShare }
}
