import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
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

  async #guarded<T>(ctx: HttpContext, work: () => Promise<T>): Promise<T> {
    // The attempt is counted before the password or code is checked (see rate_limiter).
    const attempt = await this.rateLimiter.attempt(
      ACTION,
      ctx.request.ip(),
      ctx.auth.getUserOrFail().id
    )
    const result = await work()
    await attempt.succeeded()
    return result
  }

  /** PATCH /api/auth/password: 200 `{refreshToken}`; ends every other session (new cookies). */
  async changePassword(ctx: HttpContext) {
    const fields = await changePasswordValidator.validate(ctx.request.body())
    const guard = ctx.auth.use('pingvin')
    const user = guard.getUserOrFail()
    await this.#guarded(ctx, () =>
      this.auth.changePassword(user, fields.password, fields.oldPassword)
    )
    const tokens = await guard.login(user)
    return ctx.response.ok(SessionTransformer.passwordChangedJSON(tokens))
  }

  /** POST /api/auth/totp/enable: 201 `{totpAuthUrl, totpSecret, qrCode}`. */
  async enableTotp(ctx: HttpContext) {
    const { password } = await enableTotpValidator.validate(ctx.request.body())
    const setup = await this.#guarded(ctx, () =>
      this.auth.enableTotp(ctx.auth.getUserOrFail(), password)
    )
    return ctx.response.created(setup)
  }

  /** POST /api/auth/totp/verify: 201 `true`. */
  async verifyTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, () => this.auth.verifyTotp(ctx.auth.getUserOrFail(), password, code))
    return createdTrue(ctx)
  }

  /** POST /api/auth/totp/disable: 201 `true`. */
  async disableTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, () => this.auth.disableTotp(ctx.auth.getUserOrFail(), password, code))
    return createdTrue(ctx)
  }
}
