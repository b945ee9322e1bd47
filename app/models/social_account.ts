import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/**
 * A social (OAuth/OIDC) account linked to a user (table `social_accounts`).
 * Unique per (provider, providerUserId) and per (userId, provider).
 * Deleted with its user (database cascade).
 */
export default class SocialAccount extends BaseModel {
  static table = 'social_accounts'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  /** Provider id: github, google, microsoft, discord, oidc or a plugin's provider. */
  @column()
  declare provider: string

  /** The account's id at the provider. */
  @column()
  declare providerUserId: string

  /** The account's display name at the provider. */
  @column()
  declare providerUsername: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The Tern user this account signs in as. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(account: SocialAccount) {
    if (!account.id) account.id = randomUUID()
  }
}
