import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type User from '#models/user'
import AuthService from '#services/auth/auth_service'
import RateLimiter from '#services/auth/rate_limiter'
import SessionTransformer from '#transformers/session_transformer'
import { changePasswordValidator, enableTotpValidator, totpCodeValidator } from '#validators/auth'

/** Answers 201 with the JSON document `true` (Pingvin's answer; AdonisJS would send text/plain). */
function createdTrue(ctx: HttpContext) {
  ctx.response.header('Content-Type', 'application/json; charset=utf-8')
  return ctx.response.created(true)
}

/** Failed password or code checks of a signed-in user count against this limit. */
const ACTION = 'accountSecurity'

/**
 * Signed-in routes of `/api/auth/*` that check the password or a TOTP
 * code: password change and TOTP enable/verify/disable. Every check is
 * rate limited per user and IP; a right one gives its points back.
 */
@inject()
export default class AccountSecurityController {
  constructor(
    protected auth: AuthService,
    protected rateLimiter: RateLimiter
  ) {}

  /** Runs `work` for the caller (signed in: the `auth` middleware), rate limited. */
  async #guarded<T>(ctx: HttpContext, work: (user: User) => Promise<T>): Promise<T> {
    const user = ctx.auth.getUserOrFail()
    // The attempt is counted before the password or code is checked (see rate_limiter).
    const attempt = await this.rateLimiter.attempt(ACTION, ctx.request.ip(), user.id)
    const result = await work(user)
    await attempt.succeeded()
    return result
  }

  /** PATCH /api/auth/password: 200 `{refreshToken}`; ends every other session (new cookies). */
  async changePassword(ctx: HttpContext) {
    const fields = await changePasswordValidator.validate(ctx.request.body())
    const user = await this.#guarded(ctx, async (caller) => {
      await this.auth.changePassword(caller, fields.password, fields.oldPassword)
      return caller
    })
    // The password change ended every session: this one starts anew.
    const tokens = await ctx.auth.use('pingvin').login(user)
    return ctx.response.ok(SessionTransformer.passwordChangedJSON(tokens))
  }

  /** POST /api/auth/totp/enable: 201 `{totpAuthUrl, totpSecret, qrCode}`. */
  async enableTotp(ctx: HttpContext) {
    const { password } = await enableTotpValidator.validate(ctx.request.body())
    const setup = await this.#guarded(ctx, (user) => this.auth.enableTotp(user, password))
    return ctx.response.created(setup)
  }

  /** POST /api/auth/totp/verify: 201 `true`. */
  async verifyTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, (user) => this.auth.verifyTotp(user, password, code))
    return createdTrue(ctx)
  }

  /** POST /api/auth/totp/disable: 201 `true`. */
  async disableTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, (user) => this.auth.disableTotp(user, password, code))
    return createdTrue(ctx)
  }
}
