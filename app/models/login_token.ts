import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import { HashedTokenRecord } from '#models/user_record'

/**
 * The token of the second (TOTP) step of a sign-in (table `login_tokens`):
 * hashed at rest, short-lived, single use (`usedAt` set when consumed).
 * Deleted with its user (database cascade).
 */
export default class LoginToken extends HashedTokenRecord {
  static table = 'login_tokens'

  @column.dateTime()
  declare expiresAt: DateTime

  /** When the token was consumed; null while unused. */
  @column.dateTime()
  declare usedAt: DateTime | null

  /** The OIDC id token carried through the TOTP step of a social sign-in; never serialized. */
  @column({ serializeAs: null })
  declare oauthIdToken: string | null
}
