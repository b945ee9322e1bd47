/**
 * The `access_token` JWT, as Pingvin issues it: HS256 with the
 * instance secret, claims `sub` (user id), `email`, `isAdmin`,
 * `refreshTokenId`, `iat`, `exp` = iat + 15 minutes.
 */
import { inject } from '@adonisjs/core'
import type User from '#models/user'
import { signJwt, verifyJwt } from '#services/auth/jwt'
import InstanceSecretService, { INSTANCE_SECRETS } from '#services/auth/instance_secret_service'

/** Claims of an access token. */
export interface AccessTokenClaims {
  sub: string
  email: string
  isAdmin: boolean
  /** The session (refresh token) it was issued for; null when issued outside a session (tests, tools). */
  refreshTokenId: string | null
  iat: number
  exp: number
}

/** Options of `AccessTokenService.sign`. */
export interface SignAccessTokenOptions {
  /** Issue time in seconds since the epoch (default now). */
  issuedAt?: number
  /** Lifetime in seconds (default `ACCESS_TOKEN_LIFETIME_SECONDS`). */
  lifetimeSeconds?: number
}

/** 15 minutes. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 15 * 60

/** Signs and verifies access tokens. Resolve it from the container or inject it. */
@inject()
export default class AccessTokenService {
  constructor(protected secrets: InstanceSecretService) {}

  /** Signs an access token for `user`. */
  async sign(
    user: Pick<User, 'id' | 'email' | 'isAdmin'>,
    refreshTokenId: string | null = null,
    options: SignAccessTokenOptions = {}
  ): Promise<string> {
    const iat = options.issuedAt ?? Math.floor(Date.now() / 1000)
    const claims: AccessTokenClaims = {
      sub: user.id,
      email: user.email,
      isAdmin: Boolean(user.isAdmin),
      refreshTokenId,
      iat,
      exp: iat + (options.lifetimeSeconds ?? ACCESS_TOKEN_LIFETIME_SECONDS),
    }
    return signJwt({ ...claims }, await this.secrets.get(INSTANCE_SECRETS.jwt))
  }

  /**
   * The claims of a valid, unexpired token signed by this instance, or null
   * (forged, malformed, expired, or missing `sub`).
   */
  async verify(token: string): Promise<AccessTokenClaims | null> {
    const payload = await verifyJwt(token, await this.secrets.get(INSTANCE_SECRETS.jwt))
    if (!payload || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null
    return payload as unknown as AccessTokenClaims
  }

  /**
   * The claims of a token signed by this instance even when it has expired
   * (sign-out must still find the session of a stale access token), or null
   * when forged or malformed.
   */
  async verifyIgnoringExpiry(token: string): Promise<AccessTokenClaims | null> {
    const payload = await verifyJwt(token, await this.secrets.get(INSTANCE_SECRETS.jwt), 0)
    if (!payload || typeof payload.sub !== 'string') return null
    return payload as unknown as AccessTokenClaims
  }
}
