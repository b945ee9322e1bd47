import type { HttpContext } from '@adonisjs/core/http'

/** Where visitors asking for `path` are sent: the sign-in page, coming back afterwards. */
export function signInRedirectFor(path: string): string {
  return `/auth/signIn?redirect=${encodeURIComponent(path).replace(/%2F/gi, '/')}`
}

/** The signed-in user's own pages. */
export default class AccountPagesController {
  /** `/account`: my account; visitors are sent to sign in first. */
  async show(ctx: HttpContext) {
    if (!(await ctx.auth.check())) return ctx.response.redirect(signInRedirectFor('/account'))
    return ctx.inertia.render('account/index', {})
  }
}
