/**
 * Sign-in sessions: a session is a row of `refresh_tokens`
 * whose opaque token lives in the HttpOnly `refresh_token` cookie (only its
 * digest is stored). Access tokens (15-minute JWTs in the `access_token`
 * cookie) carry the session id as `refreshTokenId`, and stop being accepted
 * as soon as their session is revoked.
 *
 * Refresh ROTATES the token: the presented token is replaced by a new one in
 * one conditional update, so a refresh token works exactly once.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import RefreshToken from '#models/refresh_token'
import User from '#models/user'
import AccessTokenService from '#services/auth/access_token_service'
import { generateToken, hashToken, sqlDateTime } from '#services/auth/tokens'
import { configValue } from '#services/config/config_service'
import { parseTimespan } from '#api/expiration'

/** The tokens of a new (or refreshed) session. */
export interface SessionTokens {
  /** The signed access token (JWT). */
  accessToken: string
  /** The opaque refresh token (shown once; only its digest is stored). */
  refreshToken: string
  /** The session id (`refresh_tokens.id`, the JWT's `refreshTokenId`). */
  refreshTokenId: string
  /** When the session ends (`general.sessionDuration` after sign-in). */
  expiresAt: DateTime
}

/** Options of `SessionService.create`. */
export interface CreateSessionOptions {
  /** The OIDC id token of a session that came from OIDC (for the provider's sign-out). */
  oauthIdToken?: string | null
}

/** The outcome of a successful refresh. */
export interface RefreshedSession extends SessionTokens {
  user: User
}

const DEFAULT_SESSION_DURATION = { months: 3 }

/**
 * Creates, refreshes and revokes sessions. Their cookies are HTTP: see
 * #auth/guards/pingvin_guard. Resolve it from the container or inject it.
 */
@inject()
export default class SessionService {
  constructor(protected accessTokens: AccessTokenService) {}

  /** When a session started now ends, from `general.sessionDuration` (3 months when unusable). */
  async expiryFromNow(): Promise<DateTime> {
    const span = parseTimespan(await configValue('general.sessionDuration'))
    const now = DateTime.utc()
    if (!span || span.value <= 0) return now.plus(DEFAULT_SESSION_DURATION)
    return now.plus({ [span.unit]: span.value })
  }

  /** Starts a session for `user`: stores the refresh token's digest and signs an access token. */
  async create(user: User, options: CreateSessionOptions = {}): Promise<SessionTokens> {
    const refreshToken = generateToken()
    const row = await RefreshToken.create({
      userId: user.id,
      tokenHash: hashToken(refreshToken),
      expiresAt: await this.expiryFromNow(),
      oauthIdToken: options.oauthIdToken ?? null,
    })
    return {
      accessToken: await this.accessTokens.sign(user, row.id),
      refreshToken,
      refreshTokenId: row.id,
      expiresAt: row.expiresAt,
    }
  }

  /**
   * Exchanges a refresh token for a new access token AND a new refresh token
   * (rotation: the presented one stops working). The session keeps its id
   * and its end. Null when the token is missing, unknown, already rotated or
   * expired (an expired row is deleted).
   */
  async refresh(refreshToken: string | null | undefined): Promise<RefreshedSession | null> {
    if (!refreshToken || typeof refreshToken !== 'string') return null
    const oldHash = hashToken(refreshToken)
    const row = await RefreshToken.findBy('tokenHash', oldHash)
    if (!row) return null
    if (row.expiresAt <= DateTime.utc()) {
      await row.delete()
      return null
    }
    const user = await User.find(row.userId)
    if (!user) return null

    const next = generateToken()
    const now = sqlDateTime()
    const updated = await db
      .from(RefreshToken.table)
      .where('id', row.id)
      .where('token_hash', oldHash)
      .update({ token_hash: hashToken(next), updated_at: now })
    // Someone else rotated it between our read and our write: it is used up.
    if (Number(Array.isArray(updated) ? updated[0] : updated) !== 1) return null

    return {
      user,
      accessToken: await this.accessTokens.sign(user, row.id),
      refreshToken: next,
      refreshTokenId: row.id,
      expiresAt: row.expiresAt,
    }
  }

  /** The live (unexpired) session `id` of `userId`, or null. */
  async findActive(id: string, userId: string): Promise<RefreshToken | null> {
    return RefreshToken.query()
      .where('id', id)
      .where('userId', userId)
      .where('expiresAt', '>', sqlDateTime())
      .first()
  }

  /**
   * User `userId` when their session `id` still exists and has not expired,
   * else null: one query (the user row, with the session as a condition)
   * where `isActive` and `User.find` make two. Every request authenticated
   * by an access token asks it, every upload chunk among them.
   */
  async userOfActive(id: string, userId: string): Promise<User | null> {
    return User.query()
      .where('id', userId)
      .whereExists((session) =>
        session
          .from(RefreshToken.table)
          .where(`${RefreshToken.table}.id`, id)
          .whereColumn(`${RefreshToken.table}.user_id`, `${User.table}.id`)
          .where(`${RefreshToken.table}.expires_at`, '>', sqlDateTime())
      )
      .first()
  }

  /** Whether session `id` of `userId` still exists and has not expired. */
  async isActive(id: string, userId: string): Promise<boolean> {
    return (await this.findActive(id, userId)) !== null
  }

  /** Revokes session `id` and returns the removed row (null when there was none). */
  async revoke(id: string): Promise<RefreshToken | null> {
    const row = await RefreshToken.find(id)
    if (!row) return null
    await row.delete()
    return row
  }

  /** Revokes the session of a refresh token; returns the removed row, or null. */
  async revokeByToken(refreshToken: string): Promise<RefreshToken | null> {
    const row = await RefreshToken.findBy('tokenHash', hashToken(refreshToken))
    if (!row) return null
    await row.delete()
    return row
  }

  /** Revokes every session of `userId`, except `exceptId` when given. Returns how many. */
  async revokeAllOf(userId: string, exceptId?: string | null): Promise<number> {
    const query = db.from(RefreshToken.table).where('user_id', userId)
    if (exceptId) query.whereNot('id', exceptId)
    const deleted = await query.delete()
    return Number(Array.isArray(deleted) ? deleted[0] : deleted)
  }
}
