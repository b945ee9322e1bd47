import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import hash from '@adonisjs/core/services/hash'
import { BaseModel, beforeCreate, beforeSave, column } from '@adonisjs/lucid/orm'

/**
 * A Tern account. The id is a UUID assigned before insert; the password is
 * hashed (scrypt) whenever it is set to a new plain value, and is null for
 * accounts that only sign in through a social provider.
 */
export default class User extends BaseModel {
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare username: string

  @column()
  declare email: string

  /** The scrypt hash (argon2id for an account imported from Pingvin until its first sign-in), never serialized. Null when the account has no password. */
  @column({ serializeAs: null })
  declare password: string | null

  @column({ consume: (value: unknown) => Boolean(value) })
  declare isAdmin: boolean

  /** The TOTP shared secret (never serialized). */
  @column({ serializeAs: null })
  declare totpSecret: string | null

  @column({ consume: (value: unknown) => Boolean(value) })
  declare totpVerified: boolean

  /** The last accepted TOTP time step (replay protection). */
  @column({
    serializeAs: null,
    consume: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
  })
  declare totpLastStep: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** Assigns the UUID primary key and the boolean defaults. */
  @beforeCreate()
  static assignDefaults(user: User) {
    if (!user.id) user.id = randomUUID()
    if (user.isAdmin === undefined) user.isAdmin = false
    if (user.totpVerified === undefined) user.totpVerified = false
  }

  /** Hashes the password when a new plain value was set. */
  @beforeSave()
  static async hashPassword(user: User) {
    if (user.$dirty.password && user.password) {
      user.password = await hash.make(user.password)
    }
  }
}
