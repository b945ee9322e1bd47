import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import UploadSession from '#models/upload_session'

/**
 * A chunk received for an upload session (table `upload_chunks`). The pair
 * (uploadSessionId, chunkIndex) is unique: recording a retried chunk a second
 * time fails with a unique-constraint error. Deleted with its session.
 */
export default class UploadChunk extends BaseModel {
  static table = 'upload_chunks'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare uploadSessionId: string

  /** 0-based index of the chunk. */
  @column({ consume: (value: unknown) => Number(value) })
  declare chunkIndex: number

  /** Bytes received in this chunk (number on every database). */
  @column({ consume: (value: unknown) => Number(value) })
  declare size: number

  /** The part's etag on disks with multipart uploads. */
  @column()
  declare etag: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** The session the chunk belongs to. */
  @belongsTo(() => UploadSession)
  declare uploadSession: BelongsTo<typeof UploadSession>

  /** Assigns the UUID primary key. */
  @beforeCreate()
  static assignId(chunk: UploadChunk) {
    if (!chunk.id) chunk.id = randomUUID()
  }
}
