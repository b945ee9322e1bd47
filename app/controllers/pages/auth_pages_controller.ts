import type { HttpContext } from '@adonisjs/core/http'
import { Exception } from '@adonisjs/core/exceptions'
import { configValue } from '#services/config/config_service'
import MailService from '#services/mail/mail_service'

/** Where a user lands after signing in or up when no page asked to come back: the upload page. */
export const LANDING_PATH = '/upload'

/**
 * A same-site path to go to after signing in: the `redirect` query when it is
 * a local path (`/account`), else the upload page (`LANDING_PATH`). Absolute
 * and protocol-relative URLs (`https://evil.test`, `//evil.test`,
 * `/\evil.test`) are refused so the sign-in page cannot be used as an open
 * redirect.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return LANDING_PATH
  // eslint-disable-next-line no-control-regex -- a redirect target must not carry control characters
  if (value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f]/.test(value))
    return LANDING_PATH
  return value
}

/** Whether mails can be sent (`smtp.enabled` and an e-mail plugin): the reset link is offered only then. */
async function mailEnabled(ctx: HttpContext): Promise<boolean> {
  const mail = await ctx.containerResolver.make(MailService)
  return mail.isEnabled()
}

/**
 * The pages of signing in and out of an account: sign in, sign up, forgot
 * password, reset password (link of the mail) and the TOTP code page of the
 * social login. The forms call the JSON API from the browser.
 */
export default class AuthPagesController {
  /** `/auth/signIn`: the sign-in form; signed-in users go on to `redirect` (or Upload). */
  async signIn(ctx: HttpContext) {
    const redirect = safeRedirectPath(ctx.request.qs().redirect)
    if (await ctx.auth.check()) return ctx.response.redirect(redirect)
    return ctx.inertia.render('auth/sign_in', { redirect, mailEnabled: await mailEnabled(ctx) })
  }

  /** `/auth/signUp`: the sign-up form; 404 when registration is off. */
  async signUp(ctx: HttpContext) {
    if (!(await configValue('share.allowRegistration'))) {
      throw new Exception('Registration is not allowed', { status: 404, code: 'E_ROUTE_NOT_FOUND' })
    }
    const redirect = safeRedirectPath(ctx.request.qs().redirect)
    if (await ctx.auth.check()) return ctx.response.redirect(redirect)
    return ctx.inertia.render('auth/sign_up', { redirect })
  }

  /**
   * `/auth/resetPassword`: asks for the e-mail address to send a reset link
   * to; with e-mail off it says that no link can be sent instead.
   */
  async forgotPassword(ctx: HttpContext) {
    return ctx.inertia.render('auth/forgot_password', { mailEnabled: await mailEnabled(ctx) })
  }

  /** `/goodbye`: where a deleted account ends (signed out, nothing to load). */
  async goodbye(ctx: HttpContext) {
    return ctx.inertia.render('auth/goodbye', {})
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

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'auth/goodbye': {}
  }
}
