import type { HttpContext } from '@adonisjs/core/http'
import { findVisibleShare } from '#services/shares/share_queries'
import { issueShareTokenLimited, setShareCookie } from '#services/shares/share_token_service'
import { assertNotPrivate } from '#services/shares/share_visitor_access'
import { shareTokenValidator } from '#validators/shares'

/**
 * POST /api/shares/:id/token: 200 exactly `{token}` + the `share_<id>_token`
 * cookie; counts one view. Wrong passwords are rate limited (429). A private
 * share (reverse share without public access) is 403 `private_share` for
 * anyone but its reverse share's creator, before any view is counted.
 */
export default class ShareTokensController {
  async store(ctx: HttpContext) {
    const share = await findVisibleShare(ctx.params.id)
    await assertNotPrivate(ctx, share)
    const { password } = await shareTokenValidator.validate(ctx.request.body() ?? {})
    const token = await issueShareTokenLimited(ctx, share, password)
    await setShareCookie(ctx, share, token)
    return ctx.response.ok({ token })
  }
}
