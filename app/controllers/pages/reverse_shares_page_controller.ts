/** The Inertia pages of reverse shares: the owner's list and the uploaders' page. */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ReverseShareService from '#services/reverse_shares/reverse_share_service'
import ReverseShareTransformer, {
  type PublicReverseShare,
} from '#transformers/reverse_share_transformer'
import { signInRedirectFor } from '#controllers/pages/account_pages_controller'
import { useHolderOf } from '#controllers/shares/share_caller'

/**
 * Props of the upload page of a reverse share (`/upload/:token`): the
 * reverse share as `GET /api/reverseShares/:token` shows it, or null when the
 * link is unknown, expired or used up (the page then explains that instead
 * of offering an upload form).
 */
export type ReverseShareUploadPageProps = {
  token: string
  /** An object type (not the interface) so Inertia sees plain JSON props. */
  reverseShare: { [Key in keyof PublicReverseShare]: PublicReverseShare[Key] } | null
}

/** The pages of reverse shares: the owner's list and the uploaders' page. */
@inject()
export default class ReverseSharesPageController {
  constructor(private reverseShares: ReverseShareService) {}

  /** `/account/reverseShares`: the signed-in user's reverse shares; visitors are sent to sign in first. */
  async index(ctx: HttpContext) {
    if (!(await ctx.auth.check()))
      return ctx.response.redirect(signInRedirectFor('/account/reverseShares'))
    return ctx.inertia.render('account/reverse_shares', {})
  }

  /**
   * `/upload/:token`: the upload page for people without an account. The
   * token is checked here so a dead link answers 404 with a clear page; the
   * `reverse_share_token` cookie is not set here but by the lookup the page
   * makes right before creating the share (see inertia/lib/reverse_share_upload.ts).
   */
  async upload(ctx: HttpContext) {
    const token = String(ctx.params.token)
    const reverseShare = await this.reverseShares.findLive(token, await useHolderOf(ctx))
    if (!reverseShare) {
      ctx.response.status(404)
      return ctx.inertia.render('upload/reverse_share', { token, reverseShare: null })
    }
    return ctx.inertia.render('upload/reverse_share', {
      token,
      reverseShare: ReverseShareTransformer.toPublicJSON(reverseShare),
    })
  }
}

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'account/reverse_shares': {}
    'upload/reverse_share': ReverseShareUploadPageProps
  }
}
