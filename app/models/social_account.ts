import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import { UserRecord } from '#models/user_record'

/**
 * A social (OAuth/OIDC) account linked to a user (table `social_accounts`).
 * Unique per (provider, providerUserId) and per (userId, provider).
 * Deleted with its user (database cascade).
 */
export default class SocialAccount extends UserRecord {
  static table = 'social_accounts'

  /** Provider id: github, google, microsoft, discord, oidc or a plugin's provider. */
  @column()
  declare provider: string

  /** The account's id at the provider. */
  @column()
  declare providerUserId: string

  /** The account's display name at the provider. */
  @column()
  declare providerUsername: string

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
