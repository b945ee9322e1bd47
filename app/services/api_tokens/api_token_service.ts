/**
 * Personal API tokens (spec/api.md §1, ext): created on the account page,
 * shown once (`tern_<43 random base64url characters>`), stored as a
 * SHA-256 digest, revocable, optionally expiring. They authenticate
 * `Authorization: Bearer <token>` on every user/admin route (see
 * #services/auth/current_user).
 */
import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import type User from '#models/user'
import { NotFoundException } from '#services/auth/auth_errors'
import { API_TOKEN_PREFIX } from '#services/auth/current_user'
import { generateToken, hashToken } from '#services/auth/tokens'

/** Characters of a token kept for display (`tern_` and 7 more). */
export const API_TOKEN_DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 7

/** An API token as listed (never the secret). */
export interface ApiTokenView {
  id: string
  name: string
  /** The token's first characters, to tell tokens apart. */
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  /** null = never expires. */
  expiresAt: string | null
}

/** The answer of a creation: the view plus the token itself, shown this once. */
export interface CreatedApiToken extends ApiTokenView {
  token: string
}

function iso(value: DateTime | null | undefined): string | null {
  return value ? value.toUTC().toISO() : null
}

/** The public view of a token row. */
export function apiTokenView(row: ApiToken): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.createdAt)!,
    lastUsedAt: iso(row.lastUsedAt),
    expiresAt: iso(row.expiresAt),
  }
}

/** See the module comment. Use the `apiTokenService` singleton. */
export class ApiTokenService {
  /** The tokens of `user`, newest first. */
  async list(user: User): Promise<ApiTokenView[]> {
    const rows = await ApiToken.query().where('userId', user.id).orderBy('createdAt', 'desc').orderBy('id')
    return rows.map(apiTokenView)
  }

  /** Creates a token for `user`; the answer holds the secret, which is never shown again. */
  async create(user: User, fields: { name: string; expiresAt?: string | null }): Promise<CreatedApiToken> {
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
    return { ...apiTokenView(row), token }
  }

  /** Revokes (deletes) token `id` of `user`; 404 "API token not found" otherwise. */
  async revoke(user: User, id: string): Promise<void> {
    const row = await ApiToken.query().where('id', id).where('userId', user.id).first()
    if (!row) throw new NotFoundException('API token not found')
    await row.delete()
  }
}

/** The API-token service of this process. */
export const apiTokenService = new ApiTokenService()
