import type { HttpContext } from '@adonisjs/core/http'
import { socialErrorPage } from '#services/oauth/error_page'

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'errors/social_login': { code: string; redirect: string; provider: string }
  }
}

/** The social-login error page: a message per code of SOCIAL_LOGIN_ERROR_CODES (#extensions/auth/errors). */
export default class ErrorPageController {
  /** `/error?error=<code>&redirect=<path>&params=<provider>`. */
  async show(ctx: HttpContext) {
    return ctx.inertia.render('errors/social_login', { ...socialErrorPage(ctx.request.qs()) })
  }
}
