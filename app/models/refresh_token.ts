import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/**
 * A sign-in session's refresh token (table `refresh_tokens`). Only the digest of
 * the opaque token is stored. Deleted with its user (database cascade).
 */
export default class RefreshToken extends BaseModel {
  static table = 'refresh_tokens'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  /** Digest of the token (never the token itself); never serialized. */
  @column({ serializeAs: null })
  declare tokenHash: string

  @column.dateTime()
  declare expiresAt: DateTime

  /** The OIDC id token of a session that came from OIDC (for the provider's sign-out); never serialized. */
  @column({ serializeAs: null })
  declare oauthIdToken: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The session's user. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(token: RefreshToken) {
    if (!token.id) token.id = randomUUID()
  }
}
