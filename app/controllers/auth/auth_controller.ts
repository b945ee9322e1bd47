import type { HttpContext } from '@adonisjs/core/http'
import UserTransformer from '#transformers/user_transformer'
import { authService } from '#services/auth/auth_service'
import { sessionService } from '#services/auth/session_service'
import { rateLimiter } from '#services/auth/rate_limiter'
import { passwordResetService } from '#services/auth/password_reset_service'
import { accessTokenService } from '#services/auth/access_token_service'
import { signOutRedirectFor } from '#services/auth/sign_out_redirect'
import { ACCESS_TOKEN_COOKIE, refuseCrossSiteCookieRequest } from '#services/auth/current_user'
import { BadRequestException, UnauthorizedException } from '#services/auth/auth_errors'
import { resetPasswordValidator, signInTotpValidator, signInValidator, signUpValidator } from '#validators/auth'
import type RefreshToken from '#models/refresh_token'

/** 403 message of both reset routes when `oauth.disablePassword` is on. */
const PASSWORD_RESET_DISABLED = 'Password reset is disabled'

/** A string field of the raw body (for rate-limit keys, before validation). */
function rawString(body: Record<string, unknown>, key: string): string | null {
  const value = body?.[key]
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The public sign-in routes of spec/api.md §1. */
export default class AuthController {
  /** POST /api/auth/signUp: 201 `{accessToken, refreshToken, user}` + cookies. */
  async signUp(ctx: HttpContext) {
    const body = ctx.request.body()
    await rateLimiter.attempt(ctx, 'signUp', rawString(body, 'email'))
    await authService.ensureRegistrationAllowed()
    const fields = await signUpValidator.validate(body)
    const { user, tokens } = await authService.signUp(fields)
    await sessionService.setCookies(ctx, tokens)
    return ctx.response.created({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      user: UserTransformer.toJSON(user),
    })
  }

  /** POST /api/auth/signIn: 200 `{accessToken, refreshToken}` + cookies, or `{loginToken}` with TOTP. */
  async signIn(ctx: HttpContext) {
    const body = ctx.request.body()
    // Every attempt takes its points before the password is checked (see rate_limiter).
    const attempt = await rateLimiter.attempt(ctx, 'signIn')
    const fields = await signInValidator.validate(body)
    if (!fields.email && !fields.username) throw new BadRequestException('Email or username is required')
    const identifier = `unknown:${fields.email ?? fields.username}`
    const result = await authService.signIn(fields, {
      // Keyed by the account, so its e-mail and its username share one counter.
      beforePassword: (user) => attempt.forAccount(user?.id ?? identifier),
    })
    await attempt.succeeded()
    if (result.kind === 'totp') return ctx.response.ok({ loginToken: result.loginToken })
    await sessionService.setCookies(ctx, result.tokens)
    return ctx.response.ok({ accessToken: result.tokens.accessToken, refreshToken: result.tokens.refreshToken })
  }

  /** POST /api/auth/signIn/totp: 200 `{accessToken, refreshToken}` + cookies. */
  async signInTotp(ctx: HttpContext) {
    const attempt = await rateLimiter.attempt(ctx, 'signInTotp')
    const fields = await signInTotpValidator.validate(ctx.request.body())
    const { tokens } = await authService.signInWithTotp(fields.loginToken, fields.totp, {
      beforeCode: (user) => attempt.forAccount(user.id),
    })
    await attempt.succeeded()
    await sessionService.setCookies(ctx, tokens)
    return ctx.response.ok({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken })
  }

  /**
   * POST /api/auth/signOut: 201; revokes the session of the access token
   * (even an expired one) and clears both cookies. Body `{redirectURI}` only
   * when a sign-out redirect applies (OIDC sessions, see sign_out_redirect).
   */
  async signOut(ctx: HttpContext) {
    await refuseCrossSiteCookieRequest(ctx)
    let revoked: RefreshToken | null = null
    const header = ctx.request.header('authorization')
    const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined
    const cookie = ctx.request.plainCookie(ACCESS_TOKEN_COOKIE, { encoded: false })
    for (const token of [bearer, cookie]) {
      if (typeof token !== 'string' || token.split('.').length !== 3) continue
      const claims = await accessTokenService.verifyIgnoringExpiry(token)
      if (!claims?.refreshTokenId) continue
      const session = await sessionService.revoke(claims.refreshTokenId)
      if (session) revoked = session
    }
    const refreshToken = sessionService.refreshTokenOf(ctx)
    if (refreshToken) revoked = (await sessionService.revokeByToken(refreshToken)) ?? revoked
    sessionService.clearCookies(ctx)
    const redirectURI = revoked ? await signOutRedirectFor(revoked) : null
    return redirectURI ? ctx.response.created({ redirectURI }) : ctx.response.created()
  }

  /**
   * POST /api/auth/token: exchanges the `refresh_token` cookie for a new
   * access token (200 `{accessToken}`); the refresh token rotates (new
   * cookie, the old one stops working). 401 when missing, unknown or expired.
   */
  async refresh(ctx: HttpContext) {
    await refuseCrossSiteCookieRequest(ctx)
    const refreshed = await sessionService.refresh(sessionService.refreshTokenOf(ctx))
    if (!refreshed) throw new UnauthorizedException()
    await sessionService.setCookies(ctx, refreshed)
    return ctx.response.ok({ accessToken: refreshed.accessToken })
  }

  /** POST /api/auth/resetPassword/:email: 202, empty, always (403 with `oauth.disablePassword`); the request is stored in the outbox, the mail goes out later. */
  async requestPasswordReset(ctx: HttpContext) {
    await authService.ensurePasswordLoginAllowed(PASSWORD_RESET_DISABLED)
    const email = String(ctx.params.email ?? '')
    await rateLimiter.attempt(ctx, 'resetPasswordRequest', email)
    // Stored before the answer (the same work for every address): a crash after it loses nothing.
    await passwordResetService.request(email)
    return ctx.response.accepted(null)
  }

  /** POST /api/auth/resetPassword: 204; 400 "Token invalid or expired". */
  async resetPassword(ctx: HttpContext) {
    await authService.ensurePasswordLoginAllowed(PASSWORD_RESET_DISABLED)
    // Tokens are unguessable; what is limited is the number checked per IP.
    const attempt = await rateLimiter.attempt(ctx, 'resetPassword')
    const fields = await resetPasswordValidator.validate(ctx.request.body())
    await passwordResetService.reset(fields.token, fields.password)
    await attempt.succeeded()
    return ctx.response.noContent()
  }
}
