import type { HttpContext } from '@adonisjs/core/http'
import { Exception } from '@adonisjs/core/exceptions'
import { currentUser } from '#middleware/auth/current_user'
import { configValue } from '#services/config/config_service'

/**
 * A same-site path to go to after signing in: the `redirect` query when it is
 * a local path (`/account`), else `/`. Absolute and protocol-relative URLs
 * (`https://evil.test`, `//evil.test`, `/\evil.test`) are refused so the
 * sign-in page cannot be used as an open redirect.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/'
  if (value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f]/.test(value)) return '/'
  return value
}

/**
 * The pages of signing in and out of an account: sign in, sign up, forgot
 * password, reset password (link of the mail) and the TOTP code page of the
 * social login. The forms call the JSON API from the browser.
 */
export default class AuthPagesController {
  /** `/auth/signIn`: the sign-in form; signed-in users go on to `redirect` (or home). */
  async signIn(ctx: HttpContext) {
    const redirect = safeRedirectPath(ctx.request.qs().redirect)
    if (await currentUser(ctx)) return ctx.response.redirect(redirect)
    return ctx.inertia.render('auth/sign_in', { redirect })
  }

  /** `/auth/signUp`: the sign-up form; 404 when registration is off. */
  async signUp(ctx: HttpContext) {
    if (!(await configValue('share.allowRegistration'))) {
      throw new Exception('Registration is not allowed', { status: 404, code: 'E_ROUTE_NOT_FOUND' })
    }
    const redirect = safeRedirectPath(ctx.request.qs().redirect)
    if (await currentUser(ctx)) return ctx.response.redirect(redirect)
    return ctx.inertia.render('auth/sign_up', { redirect })
  }

  /** `/auth/resetPassword`: asks for the e-mail address to send a reset link to. */
  async forgotPassword(ctx: HttpContext) {
    return ctx.inertia.render('auth/forgot_password', {})
  }

  /** `/auth/resetPassword/:token`: the new-password form reached from the mail. */
  async resetPassword(ctx: HttpContext) {
    return ctx.inertia.render('auth/reset_password', { token: String(ctx.params.token) })
  }

  /** `/auth/totp/:loginToken`: the TOTP code step after a social login. */
  async totp(ctx: HttpContext) {
    const redirect = safeRedirectPath(ctx.request.qs().redirect)
    return ctx.inertia.render('auth/totp', { loginToken: String(ctx.params.loginToken), redirect })
  }
}
