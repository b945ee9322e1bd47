/**
 * The request side of share ownership, for the shares controllers: who is
 * calling (signed-in user and the visitor's ownership cookie
 * `tern_share_owner`), setting that cookie on a visitor's first share, and
 * authorizing through SharePolicy with the API's error bodies.
 */
import type { AuthorizationResponse } from '@adonisjs/bouncer'
import type { HttpContext } from '@adonisjs/core/http'
import type Share from '#models/share'
import type User from '#models/user'
import { requireUser } from '#middleware/auth_middleware'
import { hooks } from '#extensions/hooks/main'
import SharePolicy from '#policies/share_policy'
import type { UseHolder } from '#services/reverse_shares/reverse_share_service'
import { secureCookies } from '#http/cookie_security'
import { ShareApiException } from '#services/shares/share_errors'
import {
  OWNER_COOKIE,
  OWNER_COOKIE_MAX_AGE,
  hashOwnerToken,
  isOwnerToken,
  newOwnerToken,
} from '#services/shares/share_owner'
import type { ShareCreator } from '#services/shares/share_service'

/** Who is calling a share route. */
export interface ShareCaller {
  /** The signed-in user, or null for a visitor. */
  user: User | null
  /** Digest of the browser's ownership cookie, or null when it has none. */
  ownerTokenHash: string | null
}

/** The browser's ownership token, or null when it has none (or a malformed one). */
function ownerToken(ctx: HttpContext): string | null {
  const token = ctx.request.plainCookie(OWNER_COOKIE, { encoded: false })
  return isOwnerToken(token) ? token : null
}

/** Digest of the browser's ownership cookie, or null when it has none (SharePolicy's argument). */
export function ownerTokenHashOf(ctx: HttpContext): string | null {
  const token = ownerToken(ctx)
  return token ? hashOwnerToken(token) : null
}

/**
 * Who may hold a use of a reverse share through an unfinished share of it
 * (ReverseShareService): the signed-in user, else the visitor's browser.
 */
export async function useHolderOf(ctx: HttpContext): Promise<UseHolder> {
  await ctx.auth.check()
  const user = ctx.auth.user ?? null
  return { creatorId: user?.id ?? null, ownerTokenHash: user ? null : ownerTokenHashOf(ctx) }
}

/**
 * The caller: the signed-in user (a cookie-authenticated mutating request
 * from another site is refused with 403, as on every `user` route) and the
 * digest of the browser's ownership cookie.
 */
export async function shareCaller(ctx: HttpContext): Promise<ShareCaller> {
  const user = (await ctx.auth.check()) ? await requireUser(ctx) : null
  return { user, ownerTokenHash: ownerTokenHashOf(ctx) }
}

/**
 * The digest to store on a visitor's new share: the browser's existing
 * ownership token is reused (one browser owns all its shares), else a new
 * random one is set as an HttpOnly cookie.
 */
async function ensureOwnerCookie(ctx: HttpContext): Promise<string> {
  let token = ownerToken(ctx)
  if (!token) {
    token = newOwnerToken()
    ctx.response.plainCookie(OWNER_COOKIE, token, {
      encode: false,
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: OWNER_COOKIE_MAX_AGE,
      secure: await secureCookies(ctx),
    })
  }
  return hashOwnerToken(token)
}

/** The API error of a SharePolicy denial: its status and message, `{statusCode, message, error}`. */
function denial(response: AuthorizationResponse): ShareApiException {
  return new ShareApiException(response.message ?? 'Forbidden', response.status ?? 403)
}

/** The share actions SharePolicy decides for an owner route. */
export type ShareAction = 'manage' | 'manageFiles' | 'delete'

/**
 * Authorizes `action` on `share` through SharePolicy, for `caller` (computed
 * when not given). A denial is answered like the API always did: the
 * policy's status and message in `{statusCode, message, error}`.
 */
export async function authorizeShare(
  ctx: HttpContext,
  action: ShareAction,
  share: Share,
  caller?: ShareCaller
): Promise<ShareCaller> {
  const who = caller ?? (await shareCaller(ctx))
  const response = await ctx.bouncer.with(SharePolicy).execute(action, share, who.ownerTokenHash)
  if (!response.authorized) throw denial(response)
  return who
}

/**
 * Who creates a share (`POST /api/shares`), once SharePolicy allowed it: a
 * signed-in user, the holder of a valid reverse-share token (`reverseShareToken`,
 * resolved by the `share:before_authorize_create` hook), or a visitor
 * while `share.allowUnauthenticatedShares` is on (the share then belongs to
 * this browser's ownership cookie). 401 otherwise.
 */
export async function shareCreator(
  ctx: HttpContext,
  reverseShareToken: string | null
): Promise<ShareCreator> {
  const caller = await shareCaller(ctx)
  const { reverseShare } = await hooks.filter('share:before_authorize_create', {
    creatorId: caller.user?.id ?? null,
    ownerTokenHash: caller.user ? null : caller.ownerTokenHash,
    reverseShareToken,
    reverseShare: null,
  })
  const response = await ctx.bouncer.with(SharePolicy).execute('create', reverseShare !== null)
  if (!response.authorized) throw denial(response)
  const ownerTokenHash = caller.user ? null : await ensureOwnerCookie(ctx)
  return { user: caller.user, ownerTokenHash, reverseShare }
}
