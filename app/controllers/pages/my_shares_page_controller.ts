import type { HttpContext } from '@adonisjs/core/http'
import Share from '#models/share'
import SharePolicy from '#policies/share_policy'
import ShareTransformer from '#transformers/share_transformer'
import { ownerTokenHashOf } from '#controllers/shares/share_caller'
import { signInRedirectFor } from '#controllers/pages/account_pages_controller'
import type { ShareEditPageProps } from '#api/share'

/** The pages of a user's shares: "My shares" and the share edit page. */
export default class MySharesPageController {
  /** `/account/shares`: the signed-in user's shares; visitors are sent to sign in first. */
  async index(ctx: HttpContext) {
    if (!(await ctx.auth.check()))
      return ctx.response.redirect(signInRedirectFor('/account/shares'))
    return ctx.inertia.render('account/shares', {})
  }

  /**
   * `/share/:id/edit`: the edit page. The page loads the share itself
   * (`GET /api/shares/:id/from-owner`); here only the access is decided, so
   * refusals get their HTTP status: 404 for an unknown share, 403 for a
   * share of someone else, and a redirect to sign-in for a visitor asking
   * for a signed-in user's share.
   */
  async edit(ctx: HttpContext) {
    const shareId = String(ctx.params.id)
    const share = await Share.find(shareId)
    if (!share) {
      ctx.response.status(404)
      return ctx.inertia.render('share/edit', { shareId, access: 'notFound', maxViews: null })
    }
    const decision = await ctx.bouncer
      .with(SharePolicy)
      .execute('manage', share, ownerTokenHashOf(ctx))
    if (!decision.authorized) {
      if (decision.status === 401) {
        return ctx.response.redirect(
          signInRedirectFor(`/share/${encodeURIComponent(shareId)}/edit`)
        )
      }
      ctx.response.status(403)
      return ctx.inertia.render('share/edit', { shareId, access: 'forbidden', maxViews: null })
    }
    await share.load('security')
    return ctx.inertia.render('share/edit', {
      shareId,
      access: 'owner',
      ...ShareTransformer.toEditSettingsJSON(share),
    })
  }
}

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'account/shares': {}
    'share/edit': ShareEditPageProps
  }
}
