import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import Share from '#models/share'

/**
 * An e-mail recipient of a share (table `share_recipients`). Deleted with its share.
 */
export default class ShareRecipient extends BaseModel {
  static table = 'share_recipients'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare shareId: string

  @column()
  declare email: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** The share sent to this recipient. */
  @belongsTo(() => Share)
  declare share: BelongsTo<typeof Share>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(recipient: ShareRecipient) {
    if (!recipient.id) recipient.id = randomUUID()
  }
}
