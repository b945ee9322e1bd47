import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column, hasMany } from '@adonisjs/lucid/orm'
import type { BelongsTo, HasMany } from '@adonisjs/lucid/types/relations'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import UploadChunk from '#models/upload_chunk'

/** Where an upload stands: every chunk expected (`receiving`) or being joined into the file (`assembling`). */
export type UploadSessionState = 'receiving' | 'assembling'

/**
 * The upload of one file in chunks (table `upload_sessions`, one per file).
 * The chunks received so far are its `chunks`. `multipartUploadId` is set when
 * the disk needs a multipart upload. `state` records the finalisation (see
 * upload_sessions.ts in app/services/files); the session is deleted, in the
 * transaction that marks its file completed, once the file is whole. Deleted
 * with its file and with its share.
 */
export default class UploadSession extends BaseModel {
  static table = 'upload_sessions'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare fileId: string

  @column()
  declare shareId: string

  @column({ consume: (value: unknown) => Number(value) })
  declare totalChunks: number

  /** Size of every chunk but the last, in bytes (number on every database). */
  @column({ consume: (value: unknown) => Number(value) })
  declare chunkSize: number

  /** The disk's multipart upload id, when the disk needs one. */
  @column()
  declare multipartUploadId: string | null

  /** `receiving` until every chunk is recorded, then `assembling` while one request joins them. */
  @column()
  declare state: UploadSessionState

  /** Last sign of life of the request assembling the file (a stale one may be taken over). */
  @column.dateTime()
  declare assemblyHeartbeatAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The file being uploaded. */
  @belongsTo(() => ShareFile, { foreignKey: 'fileId' })
  declare file: BelongsTo<typeof ShareFile>

  /** The share of the file. */
  @belongsTo(() => Share)
  declare share: BelongsTo<typeof Share>

  /** Chunks received so far. */
  @hasMany(() => UploadChunk)
  declare chunks: HasMany<typeof UploadChunk>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(session: UploadSession) {
    if (!session.id) session.id = randomUUID()
  }
}
