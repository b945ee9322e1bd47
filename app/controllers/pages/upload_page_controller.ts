import type { HttpContext } from '@adonisjs/core/http'
import { configValue } from '#services/config/config_service'
import { clearReverseShareCookie } from '#controllers/reverse_shares/reverse_share_cookie'
import { signInRedirectFor } from '#controllers/pages/account_pages_controller'

/** The upload page (`/upload`). */
export default class UploadPageController {
  /**
   * `/upload`: the dropzone, create-share and share-ready modals. Visitors
   * see it only when `share.allowUnauthenticatedShares` is on; otherwise they
   * are sent to sign in and come back here afterwards. A leftover
   * `reverse_share_token` cookie is cleared: uploads from here are ordinary.
   */
  async show(ctx: HttpContext) {
    await ctx.auth.check()
    const user = ctx.auth.user ?? null
    if (!user && !(await configValue('share.allowUnauthenticatedShares'))) {
      return ctx.response.redirect(signInRedirectFor('/upload'))
    }
    clearReverseShareCookie(ctx)
    return ctx.inertia.render('upload/index', {})
  }
}

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'upload/index': {}
  }
}
