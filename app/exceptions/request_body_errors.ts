/**
 * Errors of requests the API refuses before any controller runs: bodies
 * nested too deeply, text that is not valid Unicode or carries a NUL
 * character (in the body, the query or the address), JSON the parser could
 * not read. Each is a 400 with a message a person understands, never the
 * engine's own words ("Maximum call stack size exceeded") and never a 500.
 */
import { Exception } from '@adonisjs/core/exceptions'

/** How deeply arrays and objects of a body may nest (Tern's deepest body has 3 levels). */
export const MAX_BODY_DEPTH = 32

/** 400 for a body (or part of it) the API cannot accept. */
export class RequestBodyException extends Exception {
  static status = 400

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, { status: 400, code, cause: options?.cause })
  }
}

/** 400 `E_BODY_TOO_DEEP`. */
export function bodyTooDeep(cause?: unknown): RequestBodyException {
  return new RequestBodyException(
    `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels of arrays and objects)`,
    'E_BODY_TOO_DEEP',
    { cause }
  )
}

/** 400 `E_BODY_INVALID_UNICODE`, naming where (`The field "name"`, `The query parameter "q"`). */
export function bodyInvalidUnicode(where: string): RequestBodyException {
  return new RequestBodyException(
    `${where} contains characters that are not valid Unicode`,
    'E_BODY_INVALID_UNICODE'
  )
}

/**
 * 400 `E_REQUEST_NUL_CHARACTER`, naming where: a NUL (U+0000) cannot be
 * stored by PostgreSQL (its drivers throw, which would be a 500) and is never
 * part of a real name, address or text, so every database refuses it alike.
 */
export function requestNulCharacter(where: string): RequestBodyException {
  return new RequestBodyException(
    `${where} contains a NUL character, which cannot be used`,
    'E_REQUEST_NUL_CHARACTER'
  )
}

/**
 * The error to answer for one thrown while the body parser read a body
 * (it sets status 400 on JSON errors): a stack overflow on absurd nesting
 * becomes `bodyTooDeep`, a syntax error "The request body is not valid
 * JSON"; anything else is returned unchanged.
 */
export function requestBodyError(error: unknown): unknown {
  const err = error as { status?: unknown; message?: unknown } | null
  if (!err || err.status !== 400) return error
  if (error instanceof RangeError && /call stack/i.test(String(err.message)))
    return bodyTooDeep(error)
  if (error instanceof SyntaxError) {
    return new RequestBodyException(
      `The request body is not valid JSON: ${err.message}`,
      'E_BODY_INVALID_JSON',
      {
        cause: error,
      }
    )
  }
  return error
}
