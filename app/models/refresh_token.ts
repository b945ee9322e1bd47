import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import { HashedTokenRecord } from '#models/user_record'

/**
 * A sign-in session's refresh token (table `refresh_tokens`). Only the digest of
 * the opaque token is stored. Deleted with its user (database cascade).
 */
export default class RefreshToken extends HashedTokenRecord {
  static table = 'refresh_tokens'

  @column.dateTime()
  declare expiresAt: DateTime

  /** The OIDC id token of a session that came from OIDC (for the provider's sign-out); never serialized. */
  @column({ serializeAs: null })
  declare oauthIdToken: string | null

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
