import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column, hasMany, hasOne } from '@adonisjs/lucid/orm'
import type { BelongsTo, HasMany, HasOne } from '@adonisjs/lucid/types/relations'
import User from '#models/user'
import ReverseShare from '#models/reverse_share'
import ShareSecurity from '#models/share_security'
import ShareRecipient from '#models/share_recipient'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'

/**
 * A share (table `shares`). The id is chosen by the uploader
 * (3-50 chars). `expiration` null = never expires (the API reports epoch 0).
 * `creatorId` null = anonymous share, owned by the browser whose ownership
 * cookie digests to `ownerTokenHash`. Deleting a share deletes its security,
 * recipients, files, upload sessions and chunks (database cascades); it is
 * deleted with its creator and with its reverse share.
 */
export default class Share extends BaseModel {
  static table = 'shares'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare name: string | null

  @column()
  declare description: string | null

  /** Expiry; null = never. */
  @column.dateTime()
  declare expiration: DateTime | null

  @column({ consume: (value: unknown) => Number(value) })
  declare views: number

  @column({ consume: (value: unknown) => Boolean(value) })
  declare completed: boolean

  /** When the share was first completed (kept when it is reopened for editing). */
  @column.dateTime()
  declare completedAt: DateTime | null

  /** Why an admin removed the share; null while it is not removed. */
  @column()
  declare removedReason: string | null

  @column()
  declare creatorId: string | null

  @column()
  declare reverseShareId: string | null

  /**
   * One use of the reverse share was taken for this share when it was
   * created; given back (and this cleared) when the share is removed before
   * it was ever completed. False on shares made before uses were reserved.
   */
  @column({ consume: (value: unknown) => Boolean(value) })
  declare reverseShareUseReserved: boolean

  /** Digest of the anonymous ownership cookie; never serialized. */
  @column({ serializeAs: null })
  declare ownerTokenHash: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The signed-in user who created the share (null for anonymous shares). */
  @belongsTo(() => User, { foreignKey: 'creatorId' })
  declare creator: BelongsTo<typeof User>

  /** The reverse share it was uploaded through, if any. */
  @belongsTo(() => ReverseShare)
  declare reverseShare: BelongsTo<typeof ReverseShare>

  /** Password and view limit, when the share has them. */
  @hasOne(() => ShareSecurity)
  declare security: HasOne<typeof ShareSecurity>

  /** E-mail recipients. */
  @hasMany(() => ShareRecipient)
  declare recipients: HasMany<typeof ShareRecipient>

  /** The files of the share. */
  @hasMany(() => ShareFile)
  declare files: HasMany<typeof ShareFile>

  /** Upload sessions of files still being uploaded. */
  @hasMany(() => UploadSession)
  declare uploadSessions: HasMany<typeof UploadSession>

  /** Sets the column defaults on the instance. */
  @beforeCreate()
  static assignDefaults(share: Share) {
    if (share.views === undefined) share.views = 0
    if (share.completed === undefined) share.completed = false
    if (share.reverseShareUseReserved === undefined) share.reverseShareUseReserved = false
  }
}
