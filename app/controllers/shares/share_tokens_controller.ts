import type { HttpContext } from '@adonisjs/core/http'
import { findVisibleShare } from '#services/shares/share_queries'
import { issueShareTokenLimited, setShareCookie } from '#services/shares/share_token_service'
import { shareTokenValidator } from '#validators/shares'

/**
 * POST /api/shares/:id/token: 200 exactly `{token}` + the `share_<id>_token`
 * cookie; counts one view. Wrong passwords are rate limited (429).
 */
export default class ShareTokensController {
  async store(ctx: HttpContext) {
    const share = await findVisibleShare(ctx.params.id)
    const { password } = await shareTokenValidator.validate(ctx.request.body() ?? {})
    const token = await issueShareTokenLimited(ctx, share, password)
    await setShareCookie(ctx, share, token)
    return ctx.response.ok({ token })
  }
}
