import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import { HashedTokenRecord } from '#models/user_record'

/**
 * A password-reset token (table `password_reset_tokens`), hashed at rest and
 * valid until `expiresAt`. Deleted with its user (database cascade).
 */
export default class PasswordResetToken extends HashedTokenRecord {
  static table = 'password_reset_tokens'

  @column.dateTime()
  declare expiresAt: DateTime
}
