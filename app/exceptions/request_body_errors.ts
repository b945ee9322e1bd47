/**
 * Errors of request bodies the API refuses before any controller runs:
 * nested too deeply, text that is not valid Unicode, JSON the parser could
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

/** 400 `E_BODY_INVALID_UNICODE`, naming the field. */
export function bodyInvalidUnicode(path: string): RequestBodyException {
  const where = path ? `The field "${path}"` : 'The request body'
  return new RequestBodyException(`${where} contains characters that are not valid Unicode`, 'E_BODY_INVALID_UNICODE')
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
  if (error instanceof RangeError && /call stack/i.test(String(err.message))) return bodyTooDeep(error)
  if (error instanceof SyntaxError) {
    return new RequestBodyException(`The request body is not valid JSON: ${err.message}`, 'E_BODY_INVALID_JSON', {
      cause: error,
    })
  }
  return error
}
