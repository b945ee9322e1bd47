import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/**
 * The token of the second (TOTP) step of a sign-in (table `login_tokens`):
 * hashed at rest, short-lived, single use (`usedAt` set when consumed).
 * Deleted with its user (database cascade).
 */
export default class LoginToken extends BaseModel {
  static table = 'login_tokens'
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

  /** When the token was consumed; null while unused. */
  @column.dateTime()
  declare usedAt: DateTime | null

  /** The OIDC id token carried through the TOTP step of a social sign-in; never serialized. */
  @column({ serializeAs: null })
  declare oauthIdToken: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** The user signing in. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(token: LoginToken) {
    if (!token.id) token.id = randomUUID()
  }
}
