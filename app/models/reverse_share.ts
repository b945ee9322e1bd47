import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column, hasMany } from '@adonisjs/lucid/orm'
import type { BelongsTo, HasMany } from '@adonisjs/lucid/types/relations'
import User from '#models/user'
import Share from '#models/share'

/**
 * A reverse share (table `reverse_shares`): a link through which
 * others upload shares for its creator. Deleted with its creator; deleting it
 * deletes its shares (database cascades).
 */
export default class ReverseShare extends BaseModel {
  static table = 'reverse_shares'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  /** The token in the upload link `${appUrl}/upload/<token>`. */
  @column()
  declare token: string

  @column()
  declare creatorId: string

  /** When the reverse share (and the shares made through it) expire; null = never. */
  @column.dateTime()
  declare shareExpiration: DateTime | null

  /** Maximum size of a share made through it, in bytes (a number; bigint column). */
  @column({ consume: (value: unknown) => Number(value) })
  declare maxShareSize: number

  @column({ consume: (value: unknown) => Boolean(value) })
  declare sendEmailNotification: boolean

  /** Uses left; null = unlimited. */
  @column({
    consume: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
  })
  declare remainingUses: number | null

  @column({ consume: (value: unknown) => Boolean(value) })
  declare simplified: boolean

  /** False: its shares are visible only to the reverse share's creator. */
  @column({ consume: (value: unknown) => Boolean(value) })
  declare publicAccess: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The user who created the reverse share. */
  @belongsTo(() => User, { foreignKey: 'creatorId' })
  declare creator: BelongsTo<typeof User>

  /** The shares uploaded through it. */
  @hasMany(() => Share, { foreignKey: 'reverseShareId' })
  declare shares: HasMany<typeof Share>

  /** Assigns the UUID primary key and the column defaults. */
  @beforeCreate()
  static assignDefaults(reverseShare: ReverseShare) {
    if (!reverseShare.id) reverseShare.id = randomUUID()
    if (reverseShare.sendEmailNotification === undefined) reverseShare.sendEmailNotification = false
    if (reverseShare.remainingUses === undefined) reverseShare.remainingUses = null
    if (reverseShare.simplified === undefined) reverseShare.simplified = false
    if (reverseShare.publicAccess === undefined) reverseShare.publicAccess = true
  }
}
