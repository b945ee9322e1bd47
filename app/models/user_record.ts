/**
 * Shared base of the rows that belong to one user and go with them (database
 * cascade): sign-in, reset and API tokens, linked social accounts.
 */
import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/** A row owned by a user: UUID primary key assigned on create, `userId`, `createdAt`, `user`. */
export class UserRecord extends BaseModel {
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** The user the row belongs to. */
  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(record: UserRecord) {
    if (!record.id) record.id = randomUUID()
  }
}

/** A user's token stored as its digest only (`tokenHash`, never the token, never serialized). */
export class HashedTokenRecord extends UserRecord {
  /** Digest of the token (never the token itself); never serialized. */
  @column({ serializeAs: null })
  declare tokenHash: string
}
