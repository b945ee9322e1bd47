import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SessionTransformer from '#transformers/session_transformer'
import AuthService from '#services/auth/auth_service'
import RateLimiter from '#services/auth/rate_limiter'
import PasswordResetService from '#services/auth/password_reset_service'
import KnownDevices from '#services/auth/known_devices'
import { signOutRedirectFor } from '#services/auth/sign_out_redirect'
import { refuseCrossSiteCookieRequest } from '#auth/cross_site'
import {
  knownDeviceFor,
  rememberDevice,
  signInDeviceOf,
} from '#controllers/auth/known_device_cookie'
import { BadRequestException, UnauthorizedException } from '#services/auth/auth_errors'
import {
  resetPasswordValidator,
  signInTotpValidator,
  signInValidator,
  signUpValidator,
} from '#validators/auth'

/** 403 message of both reset routes when `oauth.disablePassword` is on. */
const PASSWORD_RESET_DISABLED = 'Password reset is disabled'

/** A string field of the raw body (for rate-limit keys, before validation). */
function rawString(body: Record<string, unknown>, key: string): string | null {
  const value = body?.[key]
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The public sign-in routes (`/api/auth/*`, Pingvin-compatible). */
@inject()
export default class AuthController {
  constructor(
    protected auth: AuthService,
    protected rateLimiter: RateLimiter,
    protected passwordResets: PasswordResetService,
    protected devices: KnownDevices
  ) {}

  /** POST /api/auth/signUp: 201 `{accessToken, refreshToken, user}` + cookies. */
  async signUp(ctx: HttpContext) {
    const body = ctx.request.body()
    await this.rateLimiter.attempt('signUp', ctx.request.ip(), rawString(body, 'email'))
    await this.auth.ensureRegistrationAllowed()
    const fields = await signUpValidator.validate(body)
    const user = await this.auth.signUp(fields)
    await this.devices.signedIn(user, signInDeviceOf(ctx))
    const tokens = await ctx.auth.use('pingvin').login(user)
    await rememberDevice(ctx, user.id)
    return ctx.response.created(SessionTransformer.signUpJSON(tokens, user))
  }

  /** POST /api/auth/signIn: 200 `{accessToken, refreshToken}` + cookies, or `{loginToken}` with TOTP. */
  async signIn(ctx: HttpContext) {
    const body = ctx.request.body()
    // Every attempt takes its points before the password is checked (see rate_limiter).
    const attempt = await this.rateLimiter.attempt('signIn', ctx.request.ip())
    const fields = await signInValidator.validate(body)
    if (!fields.email && !fields.username)
      throw new BadRequestException('Email or username is required')
    const identifier = `unknown:${fields.email ?? fields.username}`
    const result = await this.auth.signIn(fields, {
      // Keyed by the account, so its e-mail and its username share one counter;
      // a browser that signed in to it before is not refused by a spray from elsewhere.
      beforePassword: (user) =>
        attempt.forAccount(user?.id ?? identifier, user ? knownDeviceFor(ctx, user.id) : null),
    })
    await attempt.succeeded()
    if (result.kind === 'totp') return ctx.response.ok({ loginToken: result.loginToken })
    await this.devices.signedIn(result.user, signInDeviceOf(ctx))
    const tokens = await ctx.auth.use('pingvin').login(result.user)
    await rememberDevice(ctx, result.user.id)
    return ctx.response.ok(SessionTransformer.toJSON(tokens))
  }

  /** POST /api/auth/signIn/totp: 200 `{accessToken, refreshToken}` + cookies. */
  async signInTotp(ctx: HttpContext) {
    const attempt = await this.rateLimiter.attempt('signInTotp', ctx.request.ip())
    const fields = await signInTotpValidator.validate(ctx.request.body())
    const { user, oauthIdToken } = await this.auth.signInWithTotp(fields.loginToken, fields.totp, {
      beforeCode: (account) => attempt.forAccount(account.id, knownDeviceFor(ctx, account.id)),
    })
    await attempt.succeeded()
    await this.devices.signedIn(user, signInDeviceOf(ctx))
    const tokens = await ctx.auth.use('pingvin').login(user, { oauthIdToken })
    await rememberDevice(ctx, user.id)
    return ctx.response.ok(SessionTransformer.toJSON(tokens))
  }

  /**
   * POST /api/auth/signOut: 201; revokes the session of the access token
   * (even an expired one) and clears both cookies. Body `{redirectURI}` only
   * when a sign-out redirect applies (OIDC sessions, see sign_out_redirect).
   */
  async signOut(ctx: HttpContext) {
    await refuseCrossSiteCookieRequest(ctx)
    const revoked = await ctx.auth.use('pingvin').logout()
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
    const refreshed = await ctx.auth.use('pingvin').refresh()
    if (!refreshed) throw new UnauthorizedException()
    return ctx.response.ok(SessionTransformer.refreshJSON(refreshed))
  }

  /** POST /api/auth/resetPassword/:email: 202, empty, always (403 with `oauth.disablePassword`); the request is stored in the outbox, the mail goes out later. */
  async requestPasswordReset(ctx: HttpContext) {
    await this.auth.ensurePasswordLoginAllowed(PASSWORD_RESET_DISABLED)
    const email = String(ctx.params.email ?? '')
    await this.rateLimiter.attempt('resetPasswordRequest', ctx.request.ip(), email)
    // Stored before the answer (the same work for every address): a crash after it loses nothing.
    await this.passwordResets.request(email)
    return ctx.response.accepted(null)
  }

  /** POST /api/auth/resetPassword: 204; 400 "Token invalid or expired". */
  async resetPassword(ctx: HttpContext) {
    await this.auth.ensurePasswordLoginAllowed(PASSWORD_RESET_DISABLED)
    // Tokens are unguessable; what is limited is the number checked per IP.
    const attempt = await this.rateLimiter.attempt('resetPassword', ctx.request.ip())
    const fields = await resetPasswordValidator.validate(ctx.request.body())
    await this.passwordResets.reset(fields.token, fields.password)
    await attempt.succeeded()
    return ctx.response.noContent()
  }
}
