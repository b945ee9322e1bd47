import type { HttpContext } from '@adonisjs/core/http'
import { authService } from '#services/auth/auth_service'
import { sessionService } from '#services/auth/session_service'
import { rateLimiter } from '#services/auth/rate_limiter'
import { changePasswordValidator, enableTotpValidator, totpCodeValidator } from '#validators/auth'

/** Answers 201 with the JSON document `true` (Pingvin's answer; AdonisJS would send text/plain). */
function createdTrue(ctx: HttpContext) {
  ctx.response.header('Content-Type', 'application/json; charset=utf-8')
  return ctx.response.created(true)
}

/** Failed password or code checks of a signed-in user count against this limit. */
const ACTION = 'accountSecurity'

/**
 * Signed-in routes of spec/api.md §1 that check the password or a TOTP
 * code: password change and TOTP enable/verify/disable. Every check is
 * rate limited per user and IP; a right one gives its points back.
 */
export default class AccountSecurityController {
  async #guarded<T>(ctx: HttpContext, work: () => Promise<T>): Promise<T> {
    // The attempt is counted before the password or code is checked (see rate_limiter).
    const attempt = await rateLimiter.attempt(ctx, ACTION, ctx.user!.id)
    const result = await work()
    await attempt.succeeded()
    return result
  }

  /** PATCH /api/auth/password: 200 `{refreshToken}`; ends every other session (new cookies). */
  async changePassword(ctx: HttpContext) {
    const fields = await changePasswordValidator.validate(ctx.request.body())
    const tokens = await this.#guarded(ctx, () =>
      authService.changePassword(ctx.user!, fields.password, fields.oldPassword)
    )
    await sessionService.setCookies(ctx, tokens)
    return ctx.response.ok({ refreshToken: tokens.refreshToken })
  }

  /** POST /api/auth/totp/enable: 201 `{totpAuthUrl, totpSecret, qrCode}`. */
  async enableTotp(ctx: HttpContext) {
    const { password } = await enableTotpValidator.validate(ctx.request.body())
    const setup = await this.#guarded(ctx, () => authService.enableTotp(ctx.user!, password))
    return ctx.response.created(setup)
  }

  /** POST /api/auth/totp/verify: 201 `true`. */
  async verifyTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, () => authService.verifyTotp(ctx.user!, password, code))
    return createdTrue(ctx)
  }

  /** POST /api/auth/totp/disable: 201 `true`. */
  async disableTotp(ctx: HttpContext) {
    const { code, password } = await totpCodeValidator.validate(ctx.request.body())
    await this.#guarded(ctx, () => authService.disableTotp(ctx.user!, password, code))
    return createdTrue(ctx)
  }
}
