import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import HomeService from '#services/pages/home_service'

/** The home page (`/`). */
@inject()
export default class HomeController {
  constructor(protected home: HomeService) {}

  /** Renders the home page, or redirects when it is turned off. */
  async show(ctx: HttpContext) {
    const outcome = await this.home.outcome(await ctx.auth.check())
    if ('redirect' in outcome) return ctx.response.redirect(outcome.redirect)
    return ctx.inertia.render('home', {})
  }
}
