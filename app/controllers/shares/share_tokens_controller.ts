import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ShareQueries from '#services/shares/share_queries'
import ShareTokenService from '#services/shares/share_token_service'
import ShareVisitorAccess from '#services/shares/share_visitor_access'
import { shareTokenValidator } from '#validators/shares'
import { setShareCookie } from '#controllers/shares/share_token_cookie'

/**
 * POST /api/shares/:id/token: 200 exactly `{token}` + the `share_<id>_token`
 * cookie; counts one view. Wrong passwords are rate limited (429). A private
 * share (reverse share without public access) is 403 `private_share` for
 * anyone but its reverse share's creator, before any view is counted.
 */
@inject()
export default class ShareTokensController {
  constructor(
    private queries: ShareQueries,
    private tokens: ShareTokenService,
    private access: ShareVisitorAccess
  ) {}

  async store(ctx: HttpContext) {
    const share = await this.queries.findVisible(ctx.params.id)
    await ctx.auth.check()
    await this.access.assertNotPrivate(share, ctx.auth.user ?? null)
    const { password } = await shareTokenValidator.validate(ctx.request.body() ?? {})
    const token = await this.tokens.issue(share, password, ctx.request.ip())
    await setShareCookie(ctx, share, token)
    return ctx.response.ok({ token })
  }
}
