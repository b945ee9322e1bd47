/**
 * Who a credential names, without HTTP: the `pingvin` guard
 * (app/auth/guards/pingvin_guard.ts) reads the `Authorization` header and the
 * `access_token` cookie and passes their values here.
 * - A valid `access_token` JWT names its user. A JWT issued for a session
 *   (`refreshTokenId` set) is accepted only while that session exists, so
 *   sign-out, password changes and user deletion end it at once.
 * - A personal API token (`tern_...`, Bearer only) names its owner, looked
 *   up by digest; expired or revoked tokens are refused.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import User from '#models/user'
import ApiToken from '#models/api_token'
import AccessTokenService, { type AccessTokenClaims } from '#services/auth/access_token_service'
import SessionService from '#services/auth/session_service'
import { API_TOKEN_PREFIX } from '#services/api_tokens/api_token_service'
import { hashToken } from '#services/auth/tokens'

/** The outcome of a successful authentication. */
export interface Authentication {
  user: User
  /** The access token's claims; null when authenticated by a personal API token. */
  claims: AccessTokenClaims | null
  /** The personal API token used, or null for an access token (JWT). */
  apiToken: ApiToken | null
  /** Where the token came from. Cookie-authenticated requests get the cross-site check. */
  via: 'cookie' | 'bearer'
}

/** The credentials a request carried (null when absent). */
export interface Credentials {
  /** The token of `Authorization: Bearer <token>`: a JWT or a personal API token. */
  bearer: string | null
  /** The `access_token` cookie (a JWT). */
  cookie: string | null
}

/** lastUsedAt is written at most once per this many seconds per token. */
const LAST_USED_RESOLUTION_SECONDS = 60

/** Resolves credentials to a user. Resolve it from the container or inject it. */
@inject()
export default class AuthenticationService {
  constructor(
    protected accessTokens: AccessTokenService,
    protected sessions: SessionService
  ) {}

  /**
   * The user the credentials name: the Bearer token first (a JWT when it has
   * three dot-separated parts, else a personal API token), then the cookie.
   * Null when no valid token names an existing user.
   */
  async authenticate(credentials: Credentials): Promise<Authentication | null> {
    const { bearer, cookie } = credentials
    if (bearer) {
      if (bearer.split('.').length === 3) {
        const found = await this.fromAccessToken(bearer)
        if (found) return { ...found, apiToken: null, via: 'bearer' }
      } else {
        const found = await this.fromApiToken(bearer)
        if (found) return { ...found, claims: null, via: 'bearer' }
      }
    }
    if (cookie) {
      const found = await this.fromAccessToken(cookie)
      if (found) return { ...found, apiToken: null, via: 'cookie' }
    }
    return null
  }

  /** The user of a valid access token (JWT) whose session, if any, is still live. */
  async fromAccessToken(token: string): Promise<{ user: User; claims: AccessTokenClaims } | null> {
    const claims = await this.accessTokens.verify(token)
    if (!claims) return null
    const user = claims.refreshTokenId
      ? await this.sessions.userOfActive(claims.refreshTokenId, claims.sub)
      : await User.find(claims.sub)
    return user ? { user, claims } : null
  }

  /** The owner of a live personal API token (and the token), updating its lastUsedAt. */
  async fromApiToken(token: string): Promise<{ user: User; apiToken: ApiToken } | null> {
    if (!token.startsWith(API_TOKEN_PREFIX)) return null
    const apiToken = await ApiToken.findBy('tokenHash', hashToken(token))
    if (!apiToken) return null
    const now = DateTime.utc()
    if (apiToken.expiresAt && apiToken.expiresAt <= now) return null
    const user = await User.find(apiToken.userId)
    if (!user) return null
    if (
      !apiToken.lastUsedAt ||
      now.diff(apiToken.lastUsedAt, 'seconds').seconds >= LAST_USED_RESOLUTION_SECONDS
    ) {
      apiToken.lastUsedAt = now
      await apiToken.save()
    }
    return { user, apiToken }
  }
}
