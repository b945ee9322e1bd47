import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column, hasOne } from '@adonisjs/lucid/orm'
import type { BelongsTo, HasOne } from '@adonisjs/lucid/types/relations'
import Share from '#models/share'
import UploadSession from '#models/upload_session'

/**
 * A file of a share (table `files`). Named ShareFile so it does not shadow the
 * global `File`. `size` is in bytes: a bigint column, always a JavaScript number
 * on the model (exact up to 2^53 bytes); the API renders it as a decimal string.
 * `disk` names the storage disk holding the bytes, `storageKey` their key there.
 * Deleted with its share (database cascade; the stored bytes are the service's job).
 */
export default class ShareFile extends BaseModel {
  static table = 'files'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare shareId: string

  @column()
  declare name: string

  /** Size in bytes (number on every database). */
  @column({ consume: (value: unknown) => Number(value) })
  declare size: number

  @column()
  declare mimeType: string

  /** Name of the storage disk that holds the bytes. */
  @column()
  declare disk: string

  /** Key of the bytes on that disk; never serialized. */
  @column({ serializeAs: null })
  declare storageKey: string

  /** The client's `Idempotency-Key` of the first chunk (null when none was sent); never serialized. */
  @column({ serializeAs: null })
  declare uploadKey: string | null

  /** True once the last chunk is stored. */
  @column({ consume: (value: unknown) => Boolean(value) })
  declare completed: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The share the file belongs to. */
  @belongsTo(() => Share)
  declare share: BelongsTo<typeof Share>

  /** The upload in progress for this file, if any. */
  @hasOne(() => UploadSession, { foreignKey: 'fileId' })
  declare uploadSession: HasOne<typeof UploadSession>

  /** Assigns the UUID primary key and the column defaults. */
  @beforeCreate()
  static assignDefaults(file: ShareFile) {
    if (!file.id) file.id = randomUUID()
    if (file.size === undefined) file.size = 0
    if (file.mimeType === undefined) file.mimeType = 'application/octet-stream'
    if (file.completed === undefined) file.completed = false
  }
}
