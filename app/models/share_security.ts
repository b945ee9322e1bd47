import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import Share from '#models/share'

/**
 * Security of a share (table `share_securities`, one row per share at most):
 * the password hash and the view limit (null = none). Deleted with its share.
 */
export default class ShareSecurity extends BaseModel {
  static table = 'share_securities'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare shareId: string

  /** Hash of the share password (null = no password); never serialized. */
  @column({ serializeAs: null })
  declare password: string | null

  /** View limit; null = unlimited. */
  @column({
    consume: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
  })
  declare maxViews: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The protected share. */
  @belongsTo(() => Share)
  declare share: BelongsTo<typeof Share>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(security: ShareSecurity) {
    if (!security.id) security.id = randomUUID()
  }
}
