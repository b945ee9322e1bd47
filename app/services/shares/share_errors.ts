/**
 * The errors of the shares API (`/api/shares*`). Each one carries the HTTP
 * status and, where there is one, the machine key the exception
 * handler answers in `error` (docs/api.md, "Shares").
 */
import { STATUS_CODES } from 'node:http'
import { Exception } from '@adonisjs/core/exceptions'

/** An error of the shares API: `{statusCode, message, error}` with `error` = `errorKey` or the status text. */
export class ShareApiException extends Exception {
  /** The machine key answered in `error` (the status text when unset). */
  errorKey?: string
  /** An exact body to answer with (used where the contract fixes the whole body). */
  responseBody?: Record<string, unknown> & { statusCode: number; message: string; error: string }
  /** Seconds after which a retry may succeed, answered as `Retry-After`. */
  retryAfter?: number

  constructor(message: string, status: number, errorKey?: string) {
    super(message, { status, code: 'E_SHARE_API' })
    this.errorKey = errorKey
  }
}

/**
 * 400 of the chunk protocol. Its body is exactly
 * `{message: "Unexpected chunk received", error: "unexpected_chunk_index", expectedChunkIndex}`
 * (no `statusCode`), so the controller answers it itself: see `body()`.
 */
export class UnexpectedChunkException extends Exception {
  static status = 400

  constructor(readonly expectedChunkIndex: number) {
    super('Unexpected chunk received', { status: 400, code: 'E_UNEXPECTED_CHUNK' })
  }

  /** The exact response body of the contract. */
  body() {
    return {
      message: 'Unexpected chunk received',
      error: 'unexpected_chunk_index',
      expectedChunkIndex: this.expectedChunkIndex,
    }
  }
}

function error(message: string, status: number, errorKey?: string) {
  return new ShareApiException(message, status, errorKey)
}

/** Factories of every error the shares API answers (messages and keys of the contract). */
export const shareErrors = {
  /** 404 "Share not found": missing, expired or (for visitors) not completed. */
  notFound: () => error('Share not found', 404),
  /** 404 "File not found": unknown file, or a file of another share. */
  fileNotFound: () => error('File not found', 404),
  /** 404 `share_removed` with the admin's reason as message. */
  removed: (reason: string) => error(reason, 404, 'share_removed'),
  /** 400 "Share id already in use". */
  idInUse: () => error('Share id already in use', 400),
  /**
   * **(ext)** 400 `file_name_taken`: a new file named like a file the share
   * already holds (two "notes.txt" in one share; the zip would rename one).
   */
  fileNameTaken: () =>
    error('A file with this name is already in the share', 400, 'file_name_taken'),
  /** 400 over `share.maxExpiration` (or "never" while a maximum is set). */
  expirationTooLong: () => error('Expiration date exceeds maximum expiration date', 400),
  /** 400 on `POST /complete` of a completed share. */
  alreadyCompleted: () => error('Share already completed', 400),
  /** 400 on a chunk sent to a completed share. */
  uploadToCompleted: () => error('Share is already completed', 400),
  /** 400 on `DELETE /complete` of a share that is not completed. */
  notCompleted: () => error('Share is not completed', 400),
  /** 400 on completing a share without any file. */
  noFiles: () => error('You need at least one file in your share to complete it.', 400),
  /** 400 on completing a share whose files are still being uploaded. */
  unfinishedFiles: () => error('Some files of the share are not fully uploaded yet', 400),
  /** 403 `share_password_required`. */
  passwordRequired: () => error('This share is password protected', 403, 'share_password_required'),
  /** 403 `share_token_required`. */
  tokenRequired: () => error('Share token required', 403, 'share_token_required'),
  /** 403 `private_share` (shares of a non-public reverse share). */
  privateShare: () =>
    error('Only the reverse share creator can access this share', 403, 'private_share'),
  /** 403 `wrong_password`. */
  wrongPassword: () => error('Wrong password', 403, 'wrong_password'),
  /** 403 `share_max_views_exceeded`. */
  maxViewsExceeded: () => error('Maximum views exceeded', 403, 'share_max_views_exceeded'),
  /** 403 "Anonymous shares can't be deleted". */
  anonymousDelete: () => error("Anonymous shares can't be deleted", 403),
  /** 401: the route needs a signed-in user (or the share's owning browser). */
  unauthorized: () => error('Unauthorized', 401),
  /** 403: signed in (or a visitor) but not the share's owner. */
  forbidden: () => error('Forbidden', 403),
  /** 413 with the exact body `{statusCode: 413, message: "Max share size exceeded"}`. */
  maxSizeExceeded: () => {
    const exception = error('Max share size exceeded', 413)
    exception.responseBody = { statusCode: 413, message: 'Max share size exceeded' } as never
    return exception
  },
  /** 413: a chunk larger than `share.chunkSize`. */
  chunkTooLarge: (chunkSize: number) =>
    error(`A chunk can be at most ${chunkSize} bytes`, 413, STATUS_CODES[413]),
  /** 400: a chunk (not the last one) whose size is not exactly `share.chunkSize`. */
  chunkWrongSize: (chunkSize: number) =>
    error(`Every chunk but the last must be exactly ${chunkSize} bytes`, 400),
  /** 400: an `Idempotency-Key` header that is not 1-64 letters, digits, `_` or `-`. */
  invalidUploadKey: () =>
    error('Idempotency-Key must be 1 to 64 letters, numbers, underscores or hyphens', 400),
  /** 400: an edit of the expiration of a share made through a reverse share (its link sets it). */
  expirationFixedByReverseShare: () =>
    error(
      'The expiration of a share uploaded through a reverse share link is set by the link',
      400
    ),
  /** 507: the storage is full. */
  insufficientStorage: () => error('Not enough storage space', 507),
  /** 416 for a Range that cannot be satisfied. */
  rangeNotSatisfiable: () => error('Range Not Satisfiable', 416),
}
