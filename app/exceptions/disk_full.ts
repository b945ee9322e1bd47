/**
 * "No space left" from any layer: the file system
 * (ENOSPC, EDQUOT), SQLite (SQLITE_FULL), MySQL/MariaDB (1114 table full,
 * 1021 disk full) or PostgreSQL (53100 disk_full). Whatever was being saved
 * was not: the answer is 507 with a message a person understands, never a
 * 2xx and never a bare 500.
 */
import { Exception } from '@adonisjs/core/exceptions'
import type { ApiErrorBody } from '#exceptions/error_body'

const CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'SQLITE_FULL',
  'ER_RECORD_FILE_FULL',
  'ER_DISK_FULL',
  '53100',
])
const MYSQL_ERRNOS = new Set([1114, 1021])

/** The message of every 507. */
export const DISK_FULL_MESSAGE =
  'The server has run out of storage space, so nothing was saved. Please try again later or tell the administrator.'

/** 507 `E_DISK_FULL`; its body carries the message (5xx bodies are otherwise generic). */
export class DiskFullException extends Exception {
  static status = 507

  readonly responseBody: ApiErrorBody = {
    statusCode: 507,
    message: DISK_FULL_MESSAGE,
    error: 'Insufficient Storage',
  }

  constructor(cause: unknown) {
    super(DISK_FULL_MESSAGE, { status: 507, code: 'E_DISK_FULL', cause })
  }
}

/** Whether `error`, or an error it wraps (`cause`, up to 5 levels), says the disk is full (or is a 507). */
export function isDiskFull(error: unknown): boolean {
  let current = error as
    { code?: unknown; errno?: unknown; cause?: unknown; message?: unknown } | undefined
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (typeof current.code === 'string' && CODES.has(current.code)) return true
    // The storage layer's own 507 (shareErrors.insufficientStorage) gets the same readable body.
    if ((current as { status?: unknown }).status === 507) return true
    if (
      typeof current.errno === 'number' &&
      MYSQL_ERRNOS.has(current.errno) &&
      'sqlState' in current
    )
      return true
    if (
      typeof current.message === 'string' &&
      /\bENOSPC\b|no space left on device/i.test(current.message)
    )
      return true
    current = current.cause as typeof current
  }
  return false
}

/** `error` as a DiskFullException when it means "no space left", else unchanged. */
export function diskFullError(error: unknown): unknown {
  return error instanceof DiskFullException || !isDiskFull(error)
    ? error
    : new DiskFullException(error)
}
