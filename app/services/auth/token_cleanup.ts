/**
 * Removes sign-in data that can no longer be used: expired sessions
 * (refresh tokens), expired or redeemed login tokens and expired
 * password-reset tokens. Meant for the scheduled cleanup job.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import RefreshToken from '#models/refresh_token'
import LoginToken from '#models/login_token'
import PasswordResetToken from '#models/password_reset_token'
import { sqlDateTime } from '#services/auth/tokens'

/** How many rows of each kind `AuthTokenCleanup.purgeExpired` deleted. */
export interface PurgedAuthTokens {
  refreshTokens: number
  loginTokens: number
  passwordResetTokens: number
}

function count(result: unknown): number {
  return Number(Array.isArray(result) ? result[0] : result) || 0
}

/** See the module comment. Resolve it from the container or inject it. */
@inject()
export default class AuthTokenCleanup {
  /** Deletes expired sessions, spent or expired login tokens and expired reset tokens. */
  async purgeExpired(): Promise<PurgedAuthTokens> {
    const now = sqlDateTime()
    const refreshTokens = await db.from(RefreshToken.table).where('expires_at', '<=', now).delete()
    const loginTokens = await db
      .from(LoginToken.table)
      .where((query) => query.where('expires_at', '<=', now).orWhereNotNull('used_at'))
      .delete()
    const passwordResetTokens = await db
      .from(PasswordResetToken.table)
      .where('expires_at', '<=', now)
      .delete()
    return {
      refreshTokens: count(refreshTokens),
      loginTokens: count(loginTokens),
      passwordResetTokens: count(passwordResetTokens),
    }
  }
}
