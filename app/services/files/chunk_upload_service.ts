/**
 * Pingvin's chunk upload protocol: `POST /api/shares/:id/files`.
 * The first chunk (no `id`) creates the file; later chunks carry its id and
 * may arrive out of order or in parallel, each written at its place. Limits
 * are checked before a byte is written (declared sizes), then enforced while
 * streaming; a chunk is recorded only after it was stored whole, so a failed
 * or retried chunk never leaves half-recorded state. A chunk that races the
 * end of its file (a duplicate arriving while the file is assembled or after
 * it completed, or after the file was deleted) gets the file's real outcome,
 * never a database error.
 */
import type { Readable } from 'node:stream'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { storage } from '#extensions/storage/main'
import type Share from '#models/share'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import { configSnapshot, configValue } from '#services/config/config_service'
import { ByteLimit, writeChunk } from '#services/files/chunk_writer'
import { faultPoint } from '#services/files/fault_points'
import FileStorage, { isNoSpaceError } from '#services/files/file_storage'
import UploadFinalisation from '#services/files/upload_finalisation'
import {
  findFileForChunk,
  lowestMissingChunk,
  recordChunk,
  reserveLastChunkRoom,
  startUpload,
  type PrefetchedChunkFile,
  type RoomRequest,
} from '#services/files/upload_sessions'
import {
  ShareApiException,
  UnexpectedChunkException,
  shareErrors,
} from '#services/shares/share_errors'

/** One chunk as the route received it. */
export interface ChunkInput {
  name: string
  chunkIndex: number
  totalChunks: number
  /** The file id (every chunk after the first). */
  fileId?: string
  /**
   * The client's `Idempotency-Key` for a first chunk (ext): a first chunk
   * sent again with the key of a file it already created (its answer was
   * lost) goes to that file instead of creating a second one.
   */
  uploadKey?: string | null
  /** The request's Content-Length, null when the body is sent chunked. */
  contentLength: number | null
  /** The raw request body. */
  body: Readable
}

/** Options of `ChunkUploadService.receive`. */
export interface ChunkOptions {
  /** A lower size cap than `share.maxSize` (a reverse share's `maxShareSize`). */
  maxShareSize?: number | null
  /** The file of `fileId` as already read with the share (`findShareForChunk`): not read again. */
  prefetched?: PrefetchedChunkFile
}

/** Sum of the sizes of the share's files (unfinished files count the room they hold). */
async function filesSize(shareId: string): Promise<number> {
  const [row] = await db.from('files').where('share_id', shareId).sum('size as total')
  return Number(row?.total ?? 0)
}

/** A file's chunks as a chunk declares them. */
interface FileShape {
  totalChunks: number
  chunkSize: number
  /** The chunk at hand is the file's last. */
  isLast: boolean
  /** The chunk's Content-Length, null when sent without one. */
  contentLength: number | null
}

/**
 * The room a file takes under its share's size cap `limit`: every chunk but
 * the last is whole; the last one takes its Content-Length or, sent without
 * one, what is left under the cap up to a whole chunk (its bytes are counted
 * against that while they stream). Until its last chunk comes, a file holds
 * one byte of it. 413 "Max share size exceeded" when it does not fit beside
 * the other files' room.
 */
function roomOf(shape: FileShape, limit: number): RoomRequest {
  return (others) => {
    const whole = (shape.totalChunks - 1) * shape.chunkSize
    const last = shape.isLast
      ? (shape.contentLength ?? Math.min(shape.chunkSize, limit - others - whole))
      : 1
    if (last < 0 || others + whole + last > limit) throw shareErrors.maxSizeExceeded()
    return whole + last
  }
}

/**
 * The least size a file can have from what is declared: every chunk but the
 * last is full, the last one has its Content-Length (at least 1 byte while
 * unknown).
 */
function declaredSize(
  totalChunks: number,
  chunkSize: number,
  isLast: boolean,
  contentLength: number | null
) {
  const last = isLast ? (contentLength ?? 0) : totalChunks > 1 ? 1 : 0
  return (totalChunks - 1) * chunkSize + last
}

function checkChunkLength(chunkSize: number, isLast: boolean, contentLength: number | null) {
  if (contentLength === null) return
  if (contentLength > chunkSize) throw shareErrors.chunkTooLarge(chunkSize)
  if (!isLast && contentLength !== chunkSize) throw shareErrors.chunkWrongSize(chunkSize)
}

/** The error to answer for a failed write: the limiter's own error, 507 when the disk is full, else as is. */
function writeFailure(error: unknown): unknown {
  let current = error as { cause?: unknown } | undefined
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof ShareApiException) return current
    current = current.cause as typeof current
  }
  return isNoSpaceError(error) ? shareErrors.insufficientStorage() : error
}

/** The chunk upload protocol; resolve it from the container or inject it. */
@inject()
export default class ChunkUploadService {
  constructor(
    private files: FileStorage,
    private finalisation: UploadFinalisation
  ) {}

  /**
   * Receives one chunk of a share that the caller owns and that is not
   * completed. Resolves to the file's `{id, name}`. Throws
   * `UnexpectedChunkException` (400 with `expectedChunkIndex`), 404 "File not
   * found", 413 (share size or chunk size), 400 (wrong chunk size), 507 (disk
   * full) or the refusal of a `file:before_store` handler.
   *
   * The share's size cap holds at every moment, also against parallel
   * requests: a file takes its room in the share before a byte of it is
   * stored (its first chunk, then its last with the real size), each time
   * with the share locked (`startUpload`, `reserveLastChunkRoom`), and a last
   * chunk sent without Content-Length is cut off (413) past its room.
   */
  async receive(
    share: Share,
    input: ChunkInput,
    options: ChunkOptions = {}
  ): Promise<{ id: string; name: string }> {
    // Read only by the first and the last chunk (a middle chunk's limits come
    // from its session): no settings query for the chunks in between.
    const maxShareSize = async () =>
      Math.min(await configValue('share.maxSize'), options.maxShareSize ?? Infinity)
    const isLast = input.chunkIndex === input.totalChunks - 1

    if (!input.fileId && input.uploadKey && input.chunkIndex === 0) {
      const earlier = await fileOfUploadKey(share.id, input.uploadKey)
      if (earlier)
        return this.receive(share, { ...input, fileId: earlier.id, uploadKey: null }, options)
    }

    let file: ShareFile | null
    let session: UploadSession | null
    const created = !input.fileId
    if (!input.fileId) {
      if (input.chunkIndex !== 0) throw new UnexpectedChunkException(0)
      // A name the share already holds is refused (the create and edit pages
      // check their own list; files still uploading are not compared, so a
      // first chunk resent without a key after a lost answer still goes through).
      if (await completedFileNamed(share.id, input.name)) throw shareErrors.fileNameTaken()
      const config = await configSnapshot()
      const chunkSize = config.get('share.chunkSize')
      checkChunkLength(chunkSize, isLast, input.contentLength)
      const declared = declaredSize(input.totalChunks, chunkSize, isLast, input.contentLength)
      const limit = Math.min(config.get('share.maxSize'), options.maxShareSize ?? Infinity)
      const room = roomOf(
        { totalChunks: input.totalChunks, chunkSize, isLast, contentLength: input.contentLength },
        limit
      )
      for (let attempt = 1; ; attempt++) {
        try {
          // Refused early, before the file's storage is prepared; decided again with the share locked.
          room(await filesSize(share.id))
          ;({ file, session } = await startUpload(
            share,
            input.name,
            input.totalChunks,
            chunkSize,
            declared,
            room,
            input.uploadKey ?? null
          ))
          break
        } catch (error) {
          // The same first chunk, sent twice at once: the other request created
          // the file (and this one may have found no room beside it).
          const earlier = input.uploadKey ? await fileOfUploadKey(share.id, input.uploadKey) : null
          if (earlier)
            return this.receive(share, { ...input, fileId: earlier.id, uploadKey: null }, options)
          // No room, or the share is gone: trying again changes nothing.
          if (error instanceof ShareApiException) throw error
          // Nobody holds the key yet (the request that took it rolled back, e.g.
          // a MySQL deadlock victim): try again rather than answer 500.
          if (!input.uploadKey || attempt >= 3) throw error
        }
      }
    } else {
      const found =
        options.prefetched?.fileId === input.fileId
          ? options.prefetched.found
          : await findFileForChunk(share.id, input.fileId)
      if (!found) throw shareErrors.fileNotFound()
      ;({ file, session } = found)
      if (!session) {
        // Completed (by this chunk's earlier try or a duplicate), or deleted meanwhile.
        input.body.resume()
        return outcomeOf(file)
      }
      if (input.chunkIndex >= session.totalChunks || input.totalChunks !== session.totalChunks) {
        throw new UnexpectedChunkException(await lowestMissingChunk(session))
      }
      checkChunkLength(session.chunkSize, isLast, input.contentLength)
      // A middle chunk needs no new room (its file took it with the first
      // chunk); the last one brings the file's real size. Not for a retry
      // while the file is assembled: it is not stored again.
      if (isLast && session.state !== 'assembling') {
        const shape = {
          totalChunks: session.totalChunks,
          chunkSize: session.chunkSize,
          isLast,
          contentLength: input.contentLength,
        }
        const room = await reserveLastChunkRoom(
          share.id,
          file.id,
          roomOf(shape, await maxShareSize())
        )
        if (room === null) {
          input.body.resume()
          return outcomeOf(file)
        }
        if (room === 'assembling') session.state = 'assembling'
        else file.size = room
      }
    }

    if (session.state === 'assembling') {
      // Every chunk is recorded and a request is joining them: this is a retry; wait for (or take over) the assembly.
      input.body.resume()
    } else {
      if (created) await faultPoint('first-chunk', share.id)
      try {
        await storeChunk(
          this.files,
          file,
          session,
          input,
          isLast ? lastChunkRoom(file, session) : session.chunkSize
        )
      } catch (error) {
        const row = await ShareFile.find(file.id)
        if (row?.completed) return { id: file.id, name: file.name }
        // A first chunk without a key that failed leaves no file behind (the
        // client starts over without an id); with a key the client resends it
        // to the same file. A file deleted meanwhile loses what this chunk wrote.
        if (!row || (created && !input.uploadKey)) await discardFile(this.files, file, session)
        throw row ? error : shareErrors.fileNotFound()
      }
    }
    await this.finalisation.completeIfReady(storage.use(file.disk), file, session)
    return { id: file.id, name: file.name }
  }
}

/**
 * True when the share holds a completed file named exactly `name`. Compared
 * here, not in SQL: MySQL's default collation would also match "Notes.TXT"
 * or "café" for "cafe", where SQLite and PostgreSQL would not.
 */
async function completedFileNamed(shareId: string, name: string): Promise<boolean> {
  const rows = await ShareFile.query()
    .select('name')
    .where('shareId', shareId)
    .where('completed', true)
  return rows.some((row) => row.name === name)
}

/** `{id, name}` of a file whose session is gone: completed, else 404 (deleted, or discarded unstarted). */
async function outcomeOf(file: ShareFile) {
  const row = await ShareFile.find(file.id)
  if (!row?.completed) throw shareErrors.fileNotFound()
  return { id: row.id, name: row.name }
}

/** 400 for a chunk whose request ended before its body did (nobody is left to read the answer). */
function cutShort() {
  return new ShareApiException('The chunk was cut off before its end', 400)
}

/** True when the body was destroyed before it was received whole (an aborted request). */
function wasCutShort(body: Readable): boolean {
  const complete = (body as Readable & { complete?: boolean }).complete
  return body.destroyed && !(complete ?? body.readableEnded)
}

/**
 * The most bytes the last chunk of `file` may bring: its file's room (`size`,
 * taken for it) less the whole chunks before it; at most a chunk.
 */
function lastChunkRoom(file: ShareFile, session: UploadSession): number {
  return Math.min(session.chunkSize, file.size - (session.totalChunks - 1) * session.chunkSize)
}

/**
 * Streams the chunk to the disk, at most `room` bytes (a chunk, or what is
 * left of the file's room for its last: 413 "Max share size exceeded" past
 * it), checks its final size and records it.
 */
async function storeChunk(
  files: FileStorage,
  file: ShareFile,
  session: UploadSession,
  input: ChunkInput,
  room: number
) {
  const isLast = input.chunkIndex === session.totalChunks - 1
  const disk = storage.use(file.disk)
  const tooLarge = room < session.chunkSize ? () => shareErrors.maxSizeExceeded() : undefined
  const limiter = new ByteLimit(room, tooLarge)
  // The limiter may fail before the storage driver listens: the driver sees the
  // errored stream when it starts reading; this listener only keeps it handled.
  limiter.on('error', () => {})
  input.body.on('error', (error) => limiter.destroy(error))
  // A request cut off early (its connection died, or an HTTP parse error while
  // the file was being created) is destroyed without an error event: piping it
  // would wait forever, leaving the file behind. Fail the chunk instead.
  if (wasCutShort(input.body)) throw cutShort()
  input.body.once('close', () => wasCutShort(input.body) && limiter.destroy(cutShort()))
  input.body.pipe(limiter)
  let etag: string | null
  try {
    etag = await writeChunk(disk, file, session, input.chunkIndex, limiter, input.contentLength)
  } catch (error) {
    input.body.unpipe(limiter)
    input.body.resume()
    throw writeFailure(error)
  }
  if (!isLast && limiter.bytes !== session.chunkSize)
    throw shareErrors.chunkWrongSize(session.chunkSize)
  if (input.chunkIndex > 0 && !isLast) await faultPoint('chunk-stored', file.shareId)
  try {
    await recordChunk(session, input.chunkIndex, limiter.bytes, etag)
  } catch (error) {
    // The session went away while the chunk streamed (foreign key): the file
    // was completed by another request or deleted. What this chunk staged is
    // not needed by anyone; the caller answers the file's outcome.
    if (await UploadSession.find(session.id)) throw error
    await files.abortUpload(file, session)
    throw error
  }
}

/** The file of `share` created by a first chunk with `uploadKey`, or null. */
async function fileOfUploadKey(shareId: string, uploadKey: string): Promise<ShareFile | null> {
  return ShareFile.query().where('shareId', shareId).where('uploadKey', uploadKey).first()
}

/** Removes a file whose chunk failed: its upload (with the session in hand: its row may be gone), bytes and row. */
async function discardFile(files: FileStorage, file: ShareFile, session: UploadSession) {
  await files.abortUpload(file, session)
  await files.deleteFile(file)
}
