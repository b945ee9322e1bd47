/**
 * Upload state of the chunk protocol, kept in the database only (any
 * instance can take the next chunk): a file row (incomplete, `size` = the
 * declared minimum until it completes), its upload session and one
 * `upload_chunks` row per chunk received (unique per index). How the file
 * is finished from there: upload_finalisation.ts.
 */
import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { mime } from '@adonisjs/core/http/helpers'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { hooks } from '#extensions/hooks/main'
import { storage } from '#extensions/storage/main'
import ShareModel from '#models/share'
import type Share from '#models/share'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import { chunkModeFor } from '#services/files/chunk_writer'
import FileStorage, { storageKeyFor } from '#services/files/file_storage'
import { shareErrors } from '#services/shares/share_errors'

/** The mime type of a file name (application/octet-stream when unknown). */
export function mimeTypeOf(name: string): string {
  return mime.lookup(name) || 'application/octet-stream'
}

/** "Now" in the database's datetime format, for raw updates. */
export function dbNow(): string {
  return DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
}

/** Affected rows of a raw UPDATE/DELETE on every dialect. */
export function affectedRows(result: unknown): number {
  return Number(Array.isArray(result) ? result[0] : result) || 0
}

/**
 * The room a file asks of its share's size cap, given `others`: the room the
 * share's other files hold. Returns the file's room, or throws (413) when it
 * does not fit.
 */
export type RoomRequest = (others: number) => number

/**
 * Locks share `shareId`'s row until `trx` ends and returns the room its files
 * other than `exceptFileId` hold (`files.size`: the real size of a complete
 * file, what an unfinished one reserved), or null when the share is gone. One
 * request at a time decides on a share's room, on every instance: MySQL and
 * PostgreSQL lock the row (FOR UPDATE); SQLite's transactions hold the
 * database's write lock from their `BEGIN IMMEDIATE` (config/database.ts).
 * The sum is the transaction's first plain read, made once the lock is held:
 * a MySQL transaction reads from a snapshot taken at its first plain read, so
 * it sees every file committed before.
 */
async function lockShareRoom(
  trx: TransactionClientContract,
  shareId: string,
  exceptFileId: string | null
) {
  const share = await trx
    .from(ShareModel.table)
    .where('id', shareId)
    .forUpdate()
    .select('id')
    .first()
  if (!share) return null
  const query = trx.from(ShareFile.table).where('share_id', shareId)
  if (exceptFileId) query.whereNot('id', exceptFileId)
  const [row] = await query.sum('size as total')
  return Number(row?.total ?? 0)
}

/**
 * Creates the file and its upload session for the first chunk. The file
 * goes to the default disk of the moment (`storage.resolveDefault()`: `s3`
 * while `s3.enabled` is on), recorded with the file. Runs the
 * `file:before_store` filter first (it may rename the file, route it to
 * another registered disk or refuse it), then starts a multipart upload when
 * the upload's strategy is `multipart` (see `chunk_writer.ts`). The file's
 * row takes its room in the share (`room`, decided with the share locked, see
 * `lockShareRoom`): parallel first chunks never take the share past its cap
 * (`room` throws); its `size` is that room until the file completes.
 * `declaredSize` is what `file:before_store` is told. `uploadKey` is the
 * client's idempotency key (unique per share: a concurrent duplicate fails on
 * insert). Throws 404 "Share not found" when the share was deleted meanwhile.
 */
export async function startUpload(
  share: Share,
  name: string,
  totalChunks: number,
  chunkSize: number,
  declaredSize: number,
  room: RoomRequest,
  uploadKey: string | null = null
): Promise<{ file: ShareFile; session: UploadSession }> {
  const fileId = randomUUID()
  const payload = await hooks.filter('file:before_store', {
    shareId: share.id,
    file: { id: fileId, name, size: declaredSize, mimeType: mimeTypeOf(name) },
    disk: await storage.resolveDefault(),
  })
  const disk = storage.use(payload.disk)
  const key = storageKeyFor(share.id, fileId)
  const mimeType = payload.file.mimeType || mimeTypeOf(payload.file.name)
  const multipartUploadId =
    chunkModeFor(disk, { chunkSize, totalChunks }) === 'multipart'
      ? await disk.createMultipartUpload(key, { contentType: mimeType })
      : null

  try {
    return await db.transaction(async (trx) => {
      const others = await lockShareRoom(trx, share.id, null)
      if (others === null) throw shareErrors.notFound()
      const file = await ShareFile.create(
        {
          id: fileId,
          shareId: share.id,
          name: payload.file.name,
          size: room(others),
          mimeType,
          disk: disk.name,
          storageKey: key,
          uploadKey,
          completed: false,
        },
        { client: trx }
      )
      const session = await UploadSession.create(
        {
          fileId,
          shareId: share.id,
          totalChunks,
          chunkSize,
          multipartUploadId,
          state: 'receiving',
        },
        { client: trx }
      )
      return { file, session }
    })
  } catch (error) {
    // The rows were refused (no room, or a concurrent first chunk with the same key): release the multipart upload.
    if (multipartUploadId) await disk.abortMultipartUpload(key, multipartUploadId).catch(() => {})
    throw error
  }
}

/**
 * Takes the room of file `fileId`'s last chunk in its share, before the chunk
 * is stored: with the share locked (`lockShareRoom`), `room` decides the
 * file's whole room from what the other files hold, and the file's `size`
 * becomes it. Resolves to that room; to `'assembling'` when every chunk is in
 * and a request is joining them (a duplicate of the chunk, to be stored no
 * more: writing a part or a staged chunk while it is read would be a race);
 * to null when the file is no longer uploading (completed, or deleted with its
 * share or alone). Throws `room`'s 413.
 */
export async function reserveLastChunkRoom(
  shareId: string,
  fileId: string,
  room: RoomRequest
): Promise<number | 'assembling' | null> {
  return db.transaction(async (trx) => {
    const others = await lockShareRoom(trx, shareId, fileId)
    if (others === null) return null
    // The session goes with the file's completion (one transaction): while it exists the file is uploading.
    const session = await trx
      .from(UploadSession.table)
      .where('file_id', fileId)
      .select('state')
      .first()
    if (!session) return null
    if (session.state !== 'receiving') return 'assembling'
    const size = room(others)
    await trx.from(ShareFile.table).where('id', fileId).update({ size })
    return size
  })
}

/** Prefix of the session's columns in `findFileForChunk`'s joined row. */
const SESSION_PREFIX = 's__'

/**
 * File `fileId` of share `shareId` with its upload session (null once the
 * file completed: the session is dropped with it), in one query (a join)
 * instead of two: every later chunk of an upload reads both, so
 * a statement saved here is saved per chunk. Null when the share has no such file.
 */
export async function findFileForChunk(
  shareId: string,
  fileId: string
): Promise<{ file: ShareFile; session: UploadSession | null } | null> {
  const sessionColumns = [...UploadSession.$columnsDefinitions.values()].map(
    ({ columnName }) => `upload_sessions.${columnName} as ${SESSION_PREFIX}${columnName}`
  )
  const row: Record<string, unknown> | undefined = await db
    .from('files')
    .leftJoin('upload_sessions', 'upload_sessions.file_id', 'files.id')
    .where('files.id', fileId)
    .where('files.share_id', shareId)
    .select('files.*', ...sessionColumns)
    .first()
  if (!row) return null
  const fileRow: Record<string, unknown> = {}
  const sessionRow: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(SESSION_PREFIX)) sessionRow[name.slice(SESSION_PREFIX.length)] = value
    else fileRow[name] = value
  }
  const file = ShareFile.$createFromAdapterResult(fileRow)!
  const session =
    sessionRow.id === null || sessionRow.id === undefined || file.completed
      ? null
      : UploadSession.$createFromAdapterResult(sessionRow)
  return { file, session }
}

/** A later chunk's file as read together with its share (`findShareForChunk`). */
export interface PrefetchedChunkFile {
  fileId: string
  /** The file and its session as `findFileForChunk` answers them (null: the share has no such file). */
  found: { file: ShareFile; session: UploadSession | null } | null
}

/** The columns of `model`'s table as `<prefix><column>`. */
function prefixedColumns(
  model: { table: string; $columnsDefinitions: Map<string, { columnName: string }> },
  prefix: string
) {
  return [...model.$columnsDefinitions.values()].map(
    ({ columnName }) => `${model.table}.${columnName} as ${prefix}${columnName}`
  )
}

/** The part of a joined row whose keys start with `prefix`, without it. */
function unprefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const part: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(row))
    if (name.startsWith(prefix)) part[name.slice(prefix.length)] = value
  return part
}

/**
 * Share `shareId` with its file `fileId` and that file's upload session, in
 * one query: a later chunk needs all three, and reading the share, then the
 * file with its session, took two statements per chunk. Null
 * when there is no such share; `file.found` as `findFileForChunk` would answer.
 */
export async function findShareForChunk(
  shareId: string,
  fileId: string
): Promise<{ share: Share; file: PrefetchedChunkFile } | null> {
  const row: Record<string, unknown> | undefined = await db
    .from(ShareModel.table)
    .leftJoin(ShareFile.table, (join) =>
      join.on('files.share_id', '=', 'shares.id').andOnVal('files.id', '=', fileId)
    )
    .leftJoin(UploadSession.table, 'upload_sessions.file_id', 'files.id')
    .where('shares.id', shareId)
    .select(
      ...prefixedColumns(ShareModel, 'h__'),
      ...prefixedColumns(ShareFile, 'f__'),
      ...prefixedColumns(UploadSession, SESSION_PREFIX)
    )
    .first()
  if (!row) return null
  const share = ShareModel.$createFromAdapterResult(unprefixed(row, 'h__'))!
  const fileRow = unprefixed(row, 'f__')
  if (fileRow.id === null || fileRow.id === undefined)
    return { share, file: { fileId, found: null } }
  const file = ShareFile.$createFromAdapterResult(fileRow)!
  const sessionRow = unprefixed(row, SESSION_PREFIX)
  const session =
    sessionRow.id === null || sessionRow.id === undefined || file.completed
      ? null
      : UploadSession.$createFromAdapterResult(sessionRow)
  return { share, file: { fileId, found: { file, session } } }
}

/** How many chunks of a session are recorded and their total size: one aggregate row, not a row per chunk. */
export async function chunkTotals(sessionId: string): Promise<{ count: number; size: number }> {
  const row = await db
    .from('upload_chunks')
    .where('upload_session_id', sessionId)
    .count('* as count')
    .sum('size as size')
    .first()
  return { count: Number(row?.count ?? 0), size: Number(row?.size ?? 0) }
}

/** Records (or, for a retried chunk, updates) chunk `chunkIndex`: one row per index, never two. */
export async function recordChunk(
  session: UploadSession,
  chunkIndex: number,
  size: number,
  etag: string | null
) {
  await db
    .knexQuery()
    .table('upload_chunks')
    .insert({
      id: randomUUID(),
      upload_session_id: session.id,
      chunk_index: chunkIndex,
      size,
      etag,
      created_at: dbNow(),
    })
    .onConflict(['upload_session_id', 'chunk_index'])
    .merge(['size', 'etag'])
}

/** The chunks received for a session, by index. */
export async function receivedChunks(sessionId: string) {
  const rows = await db
    .from('upload_chunks')
    .where('upload_session_id', sessionId)
    .orderBy('chunk_index', 'asc')
    .select('chunk_index', 'size', 'etag')
  return rows.map((row: { chunk_index: unknown; size: unknown; etag: string | null }) => ({
    chunkIndex: Number(row.chunk_index),
    size: Number(row.size),
    etag: row.etag,
  }))
}

/** The lowest chunk index not received yet (`expectedChunkIndex`). */
export async function lowestMissingChunk(session: UploadSession): Promise<number> {
  let expected = 0
  for (const chunk of await receivedChunks(session.id)) {
    if (chunk.chunkIndex !== expected) break
    expected++
  }
  return expected
}

/**
 * Removes the files of a share that never received a whole chunk (their
 * first chunk's connection died after the file row was made: the client
 * never learnt the id, so nobody can finish or delete them) with what they
 * left in storage. Completing a share calls it, so such a file never blocks
 * its owner. Returns the ids removed.
 */
export async function discardUnstartedFiles(shareId: string): Promise<string[]> {
  const files = await ShareFile.query()
    .where('shareId', shareId)
    .where('completed', false)
    .whereNotExists((query) =>
      query
        .from('upload_chunks')
        .join('upload_sessions', 'upload_sessions.id', 'upload_chunks.upload_session_id')
        .whereColumn('upload_sessions.file_id', 'files.id')
    )
  const fileStorage = await app.container.make(FileStorage)
  for (const file of files) await fileStorage.deleteFile(file)
  return files.map((file) => file.id)
}
