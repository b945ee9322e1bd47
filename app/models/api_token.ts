import { DateTime } from 'luxon'
import { beforeCreate, column } from '@adonisjs/lucid/orm'
import { HashedTokenRecord } from '#models/user_record'

/**
 * A personal API token (table `api_tokens`), accepted as
 * `Authorization: Bearer <token>`. Only its digest is stored; `prefix` (the first
 * characters of the token) is kept for display. `scopes` is stored as a JSON array.
 * `expiresAt` null = never expires. Deleted with its user (database cascade).
 */
export default class ApiToken extends HashedTokenRecord {
  static table = 'api_tokens'

  /** The name the user gave the token. */
  @column()
  declare name: string

  /** The token's first characters, shown so users can tell tokens apart. */
  @column()
  declare prefix: string

  /** The scopes granted to the token (stored as JSON text). */
  @column({
    prepare: (value: string[] | undefined) => JSON.stringify(value ?? []),
    consume: (value: unknown) =>
      typeof value === 'string' ? (JSON.parse(value) as string[]) : ((value as string[]) ?? []),
  })
  declare scopes: string[]

  @column.dateTime()
  declare lastUsedAt: DateTime | null

  /** Expiry; null = never expires. */
  @column.dateTime()
  declare expiresAt: DateTime | null

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** An empty scope list when none was set (the primary key comes from `UserRecord`). */
  @beforeCreate()
  static assignDefaultScopes(token: ApiToken) {
    if (token.scopes === undefined) token.scopes = []
  }
}
