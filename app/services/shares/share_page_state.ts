/**
 * What the share page (`/share/:id`) already knows when the server renders
 * it, so that a visit goes straight to the right step of the token flow
 * instead of learning it from a refused API call (each refusal is a red 403
 * in the browser's console):
 *
 * - `notFound`, `expired`, `removed` (with the admin's reason): the share
 *   cannot be seen at all (the API still answers an expired share as 404
 *   "Share not found", as Pingvin does; only the page names the state);
 * - `privateShare`: a share of a reverse share without public access, for
 *   anyone but its reverse share's creator;
 * - `null`: the browser holds a valid token of this share: the page GETs it;
 * - `visitorLimit`: no token and the view limit is reached. Said before any
 *   password is asked: no password can open the share anyway (the token
 *   route still checks the password first, per the API contract);
 * - `passwordRequired`: the page opens the password modal at once;
 * - `tokenRequired`: the page asks for a token (counting the view), then GETs.
 *
 * Nothing here is more than `GET /api/shares/:id` and the token route tell a
 * visitor without a token, except that the view limit is reached; no view is
 * counted and no token is issued by rendering the page.
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Share from '#models/share'
import ShareSecurity from '#models/share_security'
import { isExpired } from '#services/shares/expiration'
import { VISIBILITY_COLUMNS, visibilityOf } from '#services/shares/share_queries'
import ShareTokenService from '#services/shares/share_token_service'
import ShareVisitorAccess from '#services/shares/share_visitor_access'
import { ShareApiException } from '#services/shares/share_errors'
import { shareTokenOf } from '#controllers/shares/share_token_cookie'
import type { ShareViewInitialState } from '#api/share'

/** The columns the page state reads: the visibility rule's, the token's and the private rule's. */
const PAGE_COLUMNS = [
  ...VISIBILITY_COLUMNS,
  'views',
  'created_at',
  'creator_id',
  'reverse_share_id',
] as const

/** Works out the share page's initial state (see the module comment). */
@inject()
export default class SharePageState {
  constructor(
    private tokens: ShareTokenService,
    private access: ShareVisitorAccess
  ) {}

  async of(ctx: HttpContext, shareId: string): Promise<ShareViewInitialState> {
    const share = await Share.query()
      .select(...PAGE_COLUMNS)
      .where('id', shareId)
      .first()
    const visibility = visibilityOf(share)
    if (visibility.kind === 'removed') return visibility
    if (visibility.kind === 'notFound' || !share) {
      return share?.completed && isExpired(share.expiration)
        ? { kind: 'expired' }
        : { kind: 'notFound' }
    }
    try {
      await ctx.auth.check()
      await this.access.assertNotPrivate(share, ctx.auth.user ?? null)
    } catch (error) {
      if (error instanceof ShareApiException && error.errorKey === 'private_share')
        return { kind: 'privateShare' }
      throw error
    }
    if (await this.tokens.verify(share, shareTokenOf(ctx, share.id))) return null
    const security = await ShareSecurity.query()
      .select('password', 'max_views')
      .where('share_id', share.id)
      .first()
    const maxViews = security?.maxViews ?? null
    if (maxViews !== null && share.views >= maxViews) return { kind: 'visitorLimit' }
    if (security?.password) return { kind: 'passwordRequired' }
    return { kind: 'tokenRequired' }
  }
}
