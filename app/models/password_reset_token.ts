import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/**
 * A password-reset token (table `password_reset_tokens`), hashed at rest and
 * valid until `expiresAt`. Deleted with its user (database cascade).
 */
export default class PasswordResetToken extends BaseModel {
  static table = 'password_reset_tokens'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  /** Digest of the token; never serialized. */
  @column({ serializeAs: null })
  declare tokenHash: string

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** The user whose password may be reset. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(token: PasswordResetToken) {
    if (!token.id) token.id = randomUUID()
  }
}
