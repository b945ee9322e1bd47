/**
 * Login tokens: the second (TOTP) step of a sign-in. A
 * password sign-in of a user with TOTP on yields an opaque token (stored as a
 * digest) valid 5 minutes; `POST /api/auth/signIn/totp` redeems it once with
 * a code. A social sign-in that needs TOTP uses the same tokens and may carry
 * the OIDC id token through them.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import LoginToken from '#models/login_token'
import User from '#models/user'
import { AuthenticationFailedException } from '#services/auth/auth_errors'
import { generateToken, hashToken, sqlDateTime } from '#services/auth/tokens'

/** Lifetime of a login token. */
export const LOGIN_TOKEN_LIFETIME_MINUTES = 5

/** A redeemable login token, as found by `LoginTokenService.find`. */
export interface PendingLogin {
  row: LoginToken
  user: User
}

/** Issues, looks up and redeems login tokens. Resolve it from the container or inject it. */
@inject()
export default class LoginTokenService {
  /** Issues a login token for `user` (valid 5 minutes, single use). */
  async issue(user: User, options: { oauthIdToken?: string | null } = {}): Promise<string> {
    const token = generateToken()
    await LoginToken.create({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: DateTime.utc().plus({ minutes: LOGIN_TOKEN_LIFETIME_MINUTES }),
      usedAt: null,
      oauthIdToken: options.oauthIdToken ?? null,
    })
    return token
  }

  /**
   * The unused, unexpired login token `token` and its user. Throws 401
   * "Invalid login token" (unknown or already used) or 401 "Login token
   * expired" with `error: "token_expired"`.
   */
  async find(token: unknown): Promise<PendingLogin> {
    const row =
      typeof token === 'string' && token.length > 0
        ? await LoginToken.findBy('tokenHash', hashToken(token))
        : null
    if (!row || row.usedAt) throw new AuthenticationFailedException('Invalid login token')
    if (row.expiresAt <= DateTime.utc()) {
      throw new AuthenticationFailedException('Login token expired', 'token_expired')
    }
    const user = await User.find(row.userId)
    if (!user) throw new AuthenticationFailedException('Invalid login token')
    return { row, user }
  }

  /**
   * Marks the token used, atomically: false when another request redeemed it
   * first (the caller then answers "Invalid login token").
   */
  async redeem(row: LoginToken): Promise<boolean> {
    const updated = await db
      .from(LoginToken.table)
      .where('id', row.id)
      .whereNull('used_at')
      .update({ used_at: sqlDateTime() })
    return Number(Array.isArray(updated) ? updated[0] : updated) === 1
  }
}
