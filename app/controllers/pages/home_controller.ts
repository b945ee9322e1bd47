import type { HttpContext } from '@adonisjs/core/http'
import { currentUser } from '#services/auth/current_user'
import { homeOutcome } from '#services/pages/home_service'

/** The home page (`/`). */
export default class HomeController {
  /** Renders the home page, or redirects when it is turned off. */
  async show(ctx: HttpContext) {
    const outcome = await homeOutcome((await currentUser(ctx)) !== null)
    if ('redirect' in outcome) return ctx.response.redirect(outcome.redirect)
    return ctx.inertia.render('home', {})
  }
}
