import type { HttpContext } from '@adonisjs/core/http'
import { socialErrorPage } from '#services/oauth/error_page'

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'errors/social_login': { code: string; redirect: string; provider: string }
  }
}

/** The social-login error page (product-spec §8). */
export default class ErrorPageController {
  /** `/error?error=<code>&redirect=<path>&params=<provider>`. */
  async show(ctx: HttpContext) {
    return ctx.inertia.render('errors/social_login', { ...socialErrorPage(ctx.request.qs()) })
  }
}
