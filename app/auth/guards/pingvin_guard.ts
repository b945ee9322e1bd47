/**
 * The `pingvin` guard of @adonisjs/auth (config/auth.ts): who is calling,
 * read from Pingvin's credentials, and the HTTP side of signing in and out.
 * Controllers, middleware and the Bouncer initializer ask `ctx.auth`
 * (`await ctx.auth.check()`, then `ctx.auth.user`); the request is
 * authenticated once, later calls reuse the result.
 *
 * Credentials, the first that names a user wins:
 * - `Authorization: Bearer <jwt>`: an access token;
 * - `Authorization: Bearer tern_...`: a personal API token
 *   (#services/api_tokens/api_token_service);
 * - the `access_token` cookie: an access token.
 * An access token is the 15-minute HS256 JWT of
 * #services/auth/access_token_service; one issued for a session
 * (`refreshTokenId`) counts only while that session lives. Turning the
 * values into a user is #services/auth/authentication_service's work.
 *
 * Cookies of a session (#services/auth/session_service): `access_token`
 * (Path `/`, SameSite Lax, readable by scripts) and `refresh_token` (Path
 * `/api/auth/token`, HttpOnly, SameSite Strict), both plain (neither signed
 * nor encrypted) so Pingvin clients can read them, Secure as every cookie
 * (#http/cookie_security), living until the session ends.
 */
import { symbols } from '@adonisjs/auth'
import type { AuthClientResponse, GuardContract } from '@adonisjs/auth/types'
import type { HttpContext } from '@adonisjs/core/http'
import type { ApplicationService } from '@adonisjs/core/types'
import type User from '#models/user'
import type ApiToken from '#models/api_token'
import type RefreshToken from '#models/refresh_token'
import AuthenticationService, { type Authentication } from '#services/auth/authentication_service'
import AccessTokenService from '#services/auth/access_token_service'
import SessionService, {
  type CreateSessionOptions,
  type RefreshedSession,
  type SessionTokens,
} from '#services/auth/session_service'
import { UnauthorizedException } from '#services/auth/auth_errors'
import { requestIsHttps, secureCookies } from '#http/cookie_security'

/** Name of the access-token cookie. */
export const ACCESS_TOKEN_COOKIE = 'access_token'

/** Name of the refresh-token cookie. */
export const REFRESH_TOKEN_COOKIE = 'refresh_token'

/** Path of the refresh-token cookie: the browser sends it to the refresh route only. */
export const REFRESH_TOKEN_COOKIE_PATH = '/api/auth/token'

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerTokenOf(ctx: HttpContext): string | null {
  const header = ctx.request.header('authorization')
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match ? match[1] : null
}

/** The plain cookie `name` of the request, or null when absent or empty. */
function plainCookieOf(ctx: HttpContext, name: string): string | null {
  const value = ctx.request.plainCookie(name, { encoded: false })
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** Whether `token` has the shape of a JWT (three dot-separated parts). */
function looksLikeJwt(token: string | null): token is string {
  return typeof token === 'string' && token.split('.').length === 3
}

/** See the module comment. Built per request by `pingvinGuard()` (#auth/guards/pingvin_config). */
export class PingvinGuard implements GuardContract<User> {
  declare [symbols.GUARD_KNOWN_EVENTS]: {}

  readonly driverName = 'pingvin' as const

  /** The caller, once `check` or `authenticate` found one (or `login` signed one in). */
  user?: User

  isAuthenticated = false

  authenticationAttempted = false

  /**
   * Where the credential came from: `cookie` (the `access_token` cookie)
   * or `bearer` (the `Authorization` header); null for a visitor and after
   * `login`. Cookie-authenticated changes get the cross-site check
   * (#auth/cross_site).
   */
  via: Authentication['via'] | null = null

  /** The caller's session (`refresh_tokens.id`); null for a personal API token or a sessionless access token. */
  sessionId: string | null = null

  /** The personal API token the caller used, or null. */
  apiToken: ApiToken | null = null

  #checked?: Promise<boolean>

  constructor(
    protected ctx: HttpContext,
    protected app: ApplicationService
  ) {}

  /**
   * Whether the request names a user (never throws for bad credentials).
   * The first call authenticates; later calls reuse its answer.
   */
  check(): Promise<boolean> {
    this.#checked ??= this.#authenticateRequest()
    return this.#checked
  }

  async #authenticateRequest(): Promise<boolean> {
    this.authenticationAttempted = true
    const bearer = bearerTokenOf(this.ctx)
    const cookie = plainCookieOf(this.ctx, ACCESS_TOKEN_COOKIE)
    // A visitor without credentials is nobody: no need to build the service (and its dependencies) to say so.
    if (!bearer && !cookie) return false
    const service = await this.ctx.containerResolver.make(AuthenticationService)
    const found = await service.authenticate({ bearer, cookie })
    if (!found) return false
    this.#signedIn(found.user, found.claims?.refreshTokenId ?? null, found.via)
    this.apiToken = found.apiToken
    return true
  }

  /** The caller; 401 `{statusCode, message: 'Unauthorized', error}` when the request names nobody. */
  async authenticate(): Promise<User> {
    await this.check()
    return this.getUserOrFail()
  }

  /** The caller once authenticated; 401 otherwise. */
  getUserOrFail(): User {
    if (!this.user) throw new UnauthorizedException()
    return this.user
  }

  /**
   * For tests (the Japa api client's `loginAs`): an `Authorization: Bearer`
   * header with an access token of `user` outside any session.
   */
  async authenticateAsClient(user: User): Promise<AuthClientResponse> {
    const accessTokens = await this.app.container.make(AccessTokenService)
    const token = await accessTokens.sign(user)
    return { headers: { authorization: `Bearer ${token}` } }
  }

  /**
   * Signs `user` in: starts a session (#services/auth/session_service),
   * writes its two cookies and makes `user` the caller of this request.
   * Every way of signing in ends here (password, TOTP, sign-up, social
   * login, password change). Returns the tokens, which the sign-in routes
   * also answer in their body.
   */
  async login(user: User, options: CreateSessionOptions = {}): Promise<SessionTokens> {
    const sessions = await this.ctx.containerResolver.make(SessionService)
    const tokens = await sessions.create(user, options)
    await this.#writeCookies(tokens)
    this.#signedIn(user, tokens.refreshTokenId, null)
    this.#checked = Promise.resolve(true)
    return tokens
  }

  /**
   * Rotates the session of the `refresh_token` cookie (the presented token
   * stops working) and writes the new cookies. Null when the cookie is
   * missing, unknown, already used or expired.
   */
  async refresh(): Promise<RefreshedSession | null> {
    const sessions = await this.ctx.containerResolver.make(SessionService)
    const refreshed = await sessions.refresh(plainCookieOf(this.ctx, REFRESH_TOKEN_COOKIE))
    if (!refreshed) return null
    await this.#writeCookies(refreshed)
    this.#signedIn(refreshed.user, refreshed.refreshTokenId, null)
    this.#checked = Promise.resolve(true)
    return refreshed
  }

  /**
   * Signs out: revokes the session of each access token the request
   * carries (Bearer or cookie, even expired) and of the `refresh_token`
   * cookie, clears both cookies and forgets the caller. Returns the last
   * session revoked (for the OIDC sign-out redirect), or null.
   */
  async logout(): Promise<RefreshToken | null> {
    const accessTokens = await this.ctx.containerResolver.make(AccessTokenService)
    const sessions = await this.ctx.containerResolver.make(SessionService)
    let revoked: RefreshToken | null = null
    for (const token of [bearerTokenOf(this.ctx), plainCookieOf(this.ctx, ACCESS_TOKEN_COOKIE)]) {
      if (!looksLikeJwt(token)) continue
      const claims = await accessTokens.verifyIgnoringExpiry(token)
      if (!claims?.refreshTokenId) continue
      revoked = (await sessions.revoke(claims.refreshTokenId)) ?? revoked
    }
    const refreshToken = plainCookieOf(this.ctx, REFRESH_TOKEN_COOKIE)
    if (refreshToken) revoked = (await sessions.revokeByToken(refreshToken)) ?? revoked
    this.forget()
    return revoked
  }

  /**
   * Clears both cookies and forgets the caller, without touching the
   * database (the account and its sessions are gone already).
   */
  forget(): void {
    const secure = requestIsHttps(this.ctx)
    this.ctx.response.clearCookie(ACCESS_TOKEN_COOKIE, { path: '/', secure })
    this.ctx.response.clearCookie(REFRESH_TOKEN_COOKIE, { path: REFRESH_TOKEN_COOKIE_PATH, secure })
    this.user = undefined
    this.isAuthenticated = false
    this.via = null
    this.sessionId = null
    this.apiToken = null
    this.#checked = Promise.resolve(false)
  }

  #signedIn(user: User, sessionId: string | null, via: Authentication['via'] | null): void {
    this.user = user
    this.isAuthenticated = true
    this.authenticationAttempted = true
    this.sessionId = sessionId
    this.via = via
    this.apiToken = null
  }

  async #writeCookies(tokens: Pick<SessionTokens, 'accessToken' | 'refreshToken' | 'expiresAt'>) {
    const secure = await secureCookies(this.ctx)
    const maxAge = Math.max(0, Math.floor(tokens.expiresAt.diffNow('seconds').seconds))
    this.ctx.response.plainCookie(ACCESS_TOKEN_COOKIE, tokens.accessToken, {
      encode: false,
      path: '/',
      httpOnly: false,
      sameSite: 'lax',
      secure,
      maxAge,
    })
    this.ctx.response.plainCookie(REFRESH_TOKEN_COOKIE, tokens.refreshToken, {
      encode: false,
      path: REFRESH_TOKEN_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge,
    })
  }
}
