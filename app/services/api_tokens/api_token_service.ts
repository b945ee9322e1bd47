/**
 * Personal API tokens (a Tern addition): created on the account page,
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
import { ConflictException } from '#services/auth/auth_errors'

/** Prefix of personal API tokens (`tern_<random>`). */
export const API_TOKEN_PREFIX = 'tern_'

/** Characters of a token kept for display (`tern_` and 7 more). */
export const API_TOKEN_DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 7

/** The refusal of a name the user already gave one of his tokens (409). */
export const API_TOKEN_NAME_TAKEN = 'An API token with this name already exists'

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

  /**
   * Creates a token for `user`; the answer holds the secret, which is never
   * shown again. A name the user already gave a token (compared without case,
   * as MySQL's collation does) is refused with 409 `API_TOKEN_NAME_TAKEN`:
   * the account page and the revoke confirmation tell tokens apart by name.
   * Two requests racing with one name meet the unique index
   * (`api_tokens.user_id, name`), and the loser gets the same 409.
   */
  async create(
    user: User,
    fields: { name: string; expiresAt?: string | null }
  ): Promise<NewApiToken> {
    if (await this.#nameTaken(user, fields.name)) throw new ConflictException(API_TOKEN_NAME_TAKEN)
    const token = `${API_TOKEN_PREFIX}${generateToken()}`
    try {
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
    } catch (error) {
      if (await this.#nameTaken(user, fields.name))
        throw new ConflictException(API_TOKEN_NAME_TAKEN)
      throw error
    }
  }

  /** Whether `user` has a token named `name` (case aside). A user has a handful of tokens: compared here, alike on every database. */
  async #nameTaken(user: User, name: string): Promise<boolean> {
    const wanted = name.toLocaleLowerCase('en-US')
    const rows = await ApiToken.query().where('userId', user.id).select('name')
    return rows.some((row) => row.name.toLocaleLowerCase('en-US') === wanted)
  }

  /** Revokes (deletes) a token. */
  async revoke(row: ApiToken): Promise<void> {
    await row.delete()
  }
}
