/**
 * Personal API tokens (spec/api.md §1, ext): created on the account page,
 * shown once (`tern_<43 random base64url characters>`), stored as a
 * SHA-256 digest, revocable, optionally expiring. They authenticate
 * `Authorization: Bearer <token>` on every user/admin route (see
 * #services/auth/authentication_service).
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import type User from '#models/user'
import { generateToken, hashToken } from '#services/auth/tokens'

/** Prefix of personal API tokens (`tern_<random>`). */
export const API_TOKEN_PREFIX = 'tern_'

/** Characters of a token kept for display (`tern_` and 7 more). */
export const API_TOKEN_DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 7

/** A new token: its row and the secret, which is never shown again. */
export interface NewApiToken {
  row: ApiToken
  token: string
}

/**
 * See the module comment. Who may act on a token is ApiTokenPolicy's
 * business. Resolve it from the container or inject it.
 */
@inject()
export default class ApiTokenService {
  /** The tokens of `user`, newest first. */
  list(user: User): Promise<ApiToken[]> {
    return ApiToken.query().where('userId', user.id).orderBy('createdAt', 'desc').orderBy('id')
  }

  /** The token `id`, or null. */
  async find(id: string): Promise<ApiToken | null> {
    return typeof id === 'string' && id.length <= 36 ? ApiToken.find(id) : null
  }

  /** Creates a token for `user`; the answer holds the secret, which is never shown again. */
  async create(user: User, fields: { name: string; expiresAt?: string | null }): Promise<NewApiToken> {
    const token = `${API_TOKEN_PREFIX}${generateToken()}`
    const row = await ApiToken.create({
      userId: user.id,
      name: fields.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_DISPLAY_PREFIX_LENGTH),
      scopes: [],
      lastUsedAt: null,
      expiresAt: fields.expiresAt ? DateTime.fromISO(fields.expiresAt, { zone: 'utc' }) : null,
    })
    return { row, token }
  }

  /** Revokes (deletes) a token. */
  async revoke(row: ApiToken): Promise<void> {
    await row.delete()
  }
}
