import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/**
 * A personal API token (table `api_tokens`), accepted as
 * `Authorization: Bearer <token>`. Only its digest is stored; `prefix` (the first
 * characters of the token) is kept for display. `scopes` is stored as a JSON array.
 * `expiresAt` null = never expires. Deleted with its user (database cascade).
 */
export default class ApiToken extends BaseModel {
  static table = 'api_tokens'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  /** The name the user gave the token. */
  @column()
  declare name: string

  /** Digest of the token; never serialized. */
  @column({ serializeAs: null })
  declare tokenHash: string

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

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The token's owner. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key and an empty scope list when none was set. */
  @beforeCreate()
  static assignDefaults(token: ApiToken) {
    if (!token.id) token.id = randomUUID()
    if (token.scopes === undefined) token.scopes = []
  }
}
