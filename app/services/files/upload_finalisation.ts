/**
 * Finalisation of a chunked upload, a recorded state machine:
 * `receiving` (upload_sessions.state) until every chunk is recorded, then
 * `assembling` while exactly one request joins the chunks (completes the
 * multipart upload or streams the staged chunks into the object), then
 * complete: the file row turns `completed` and the session is dropped in one
 * transaction, only after the object is whole. A file is never reported
 * complete before its bytes are.
 *
 * Every step can be repeated: the request assembling refreshes a heartbeat;
 * when it stops (its process died), a retried chunk or the stalled-upload
 * job takes the assembly over and runs it again. Assembling twice is safe
 * (same parts, same staged chunks), and an assembly whose previous run
 * already finished the object (the multipart upload is gone, the staged
 * chunks deleted) is recognised by the object's size.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import { Exception } from '@adonisjs/core/exceptions'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { storage, type StorageDisk } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import { assembleFile } from '#services/files/chunk_writer'
import { faultPoint } from '#services/files/fault_points'
import { affectedRows, chunkTotals, dbNow, receivedChunks } from '#services/files/upload_sessions'
import { ShareApiException, shareErrors } from '#services/shares/share_errors'

/** An assembly without a heartbeat for this long is taken to be dead and may be taken over. */
export const ASSEMBLY_STALE_AFTER_MS = 5_000
/** How often the assembling request proves it is alive. */
const HEARTBEAT_EVERY_MS = 1_000
/** How long a request waits for another request's assembly before answering 409. */
const ASSEMBLY_WAIT_MS = 60_000
/** Pause between two looks at another request's assembly. */
const ASSEMBLY_POLL_MS = 200

/** 409 while another request is still assembling the file (the client retries the chunk). */
export function assemblyInProgress() {
  const error = new ShareApiException(
    'The file is still being assembled, send the chunk again in a moment',
    409,
    'file_assembling'
  )
  error.retryAfter = 1
  return error
}

/**
 * 500 for an assembly that failed in storage. Its cause may be a storage
 * "not found" (a staged chunk gone), which must not reach the client as a
 * 404 of the share or file.
 */
export class UploadAssemblyException extends Exception {
  static status = 500
  static code = 'E_UPLOAD_ASSEMBLY_FAILED'
}

function dbTime(date: DateTime): string {
  return date.toUTC().toFormat(db.connection().dialect.dateTimeFormat)
}

/** Takes the assembly of `session` when it is receiving or its assembler went silent; true when taken. */
async function claimAssembly(sessionId: string): Promise<boolean> {
  const staleBefore = dbTime(DateTime.utc().minus({ milliseconds: ASSEMBLY_STALE_AFTER_MS }))
  return (
    affectedRows(
      await db
        .from('upload_sessions')
        .where('id', sessionId)
        .where((query) =>
          query
            .where('state', 'receiving')
            .orWhereNull('assembly_heartbeat_at')
            .orWhere('assembly_heartbeat_at', '<', staleBefore)
        )
        .update({ state: 'assembling', assembly_heartbeat_at: dbNow() })
    ) === 1
  )
}

/** True when the object of `file` exists with exactly `size` bytes (a previous assembly finished it). */
async function isWhole(disk: StorageDisk, file: ShareFile, size: number): Promise<boolean> {
  try {
    const meta = await disk.getMetaData(file.storageKey)
    return meta.contentLength === size
  } catch {
    return false
  }
}

/** Joins the chunks; a run that fails because an earlier run already made the object whole is a success. */
async function assemble(disk: StorageDisk, file: ShareFile, session: UploadSession, size: number) {
  const chunks = await receivedChunks(session.id)
  try {
    await assembleFile(disk, file, session, chunks)
  } catch (error) {
    if (await isWhole(disk, file, size)) return
    throw error
  }
}

/** Runs the claimed assembly with a heartbeat, then marks the file complete and drops the session. */
async function runAssembly(
  disk: StorageDisk,
  file: ShareFile,
  session: UploadSession,
  size: number
) {
  const heartbeat = setInterval(() => {
    db.from('upload_sessions')
      .where('id', session.id)
      .where('state', 'assembling')
      .update({ assembly_heartbeat_at: dbNow() })
      .catch((error) =>
        logger.warn({ err: error, fileId: file.id }, 'upload assembly heartbeat failed')
      )
  }, HEARTBEAT_EVERY_MS)
  try {
    await faultPoint('assembling', file.shareId)
    await assemble(disk, file, session, size)
    await faultPoint('assembled', file.shareId)
    await db.transaction(async (trx) => {
      await trx
        .from('files')
        .where('id', file.id)
        .update({ completed: true, size, updated_at: dbNow() })
      await trx.from('upload_sessions').where('id', session.id).delete()
    })
  } catch (error) {
    logger.error(
      { err: error, fileId: file.id, shareId: file.shareId, disk: disk.name },
      'could not assemble an uploaded file; it stays unfinished and is assembled again on the next try'
    )
    // Back to receiving: the next chunk (or a retry of the last) starts the assembly again at once.
    await db
      .from('upload_sessions')
      .where('id', session.id)
      .update({ state: 'receiving', assembly_heartbeat_at: null })
      .catch(() => {})
    if (error instanceof ShareApiException) throw error
    throw new UploadAssemblyException('Could not assemble an uploaded file', { cause: error })
  } finally {
    clearInterval(heartbeat)
  }
}

/**
 * Whether every chunk of `session` is recorded, and the file's size then.
 * Asked after every chunk: a count and a sum (one row), not the chunk list.
 */
async function readiness(session: UploadSession): Promise<{ ready: boolean; size: number }> {
  const { count, size } = await chunkTotals(session.id)
  return { ready: count >= session.totalChunks, size }
}

/** Completes uploaded files once every chunk is in; resolve it from the container or inject it. */
@inject()
export default class UploadFinalisation {
  /**
   * Completes the file when every chunk of `session` is recorded: claims the
   * assembly, joins the chunks, then marks the file complete. When another
   * request is assembling it, waits for it (up to a minute, then 409 to retry)
   * and takes over when that request went silent. Resolves once the file is
   * complete or when chunks are still missing; throws 404 when the file was
   * deleted meanwhile, or the storage error of a failed assembly (logged at
   * error level; the upload stays resumable).
   */
  async completeIfReady(disk: StorageDisk, file: ShareFile, session: UploadSession): Promise<void> {
    const deadline = Date.now() + ASSEMBLY_WAIT_MS
    for (;;) {
      const { ready, size } = await readiness(session)
      if (!ready) return
      const current = await UploadSession.find(session.id)
      if (current && (await claimAssembly(session.id))) {
        if (current.state === 'assembling') {
          logger.warn(
            { fileId: file.id, shareId: file.shareId },
            'taking over a stalled upload assembly (its process stopped)'
          )
        }
        return runAssembly(disk, file, session, size)
      }
      if (!current) {
        const row = await ShareFile.find(file.id)
        if (row?.completed) return
        throw shareErrors.fileNotFound()
      }
      if (Date.now() > deadline) throw assemblyInProgress()
      await new Promise((resolve) => setTimeout(resolve, ASSEMBLY_POLL_MS))
    }
  }

  /**
   * Finishes the uploads whose assembly stalled (state `assembling`, no
   * heartbeat for `ASSEMBLY_STALE_AFTER_MS`: their process died), e.g. after a
   * restart, without waiting for the client to retry. Returns the ids of the
   * files completed; failures are logged and left for the next run.
   */
  async resumeStalled(): Promise<string[]> {
    const staleBefore = dbTime(DateTime.utc().minus({ milliseconds: ASSEMBLY_STALE_AFTER_MS }))
    const sessions = await UploadSession.query()
      .where('state', 'assembling')
      .where((query) =>
        query.whereNull('assemblyHeartbeatAt').orWhere('assemblyHeartbeatAt', '<', staleBefore)
      )
    const completed: string[] = []
    for (const session of sessions) {
      const file = await ShareFile.find(session.fileId)
      if (!file) continue
      try {
        await this.completeIfReady(storage.use(file.disk), file, session)
        completed.push(file.id)
      } catch {
        // Logged by the assembly; the next run tries again.
      }
    }
    return completed
  }
}
