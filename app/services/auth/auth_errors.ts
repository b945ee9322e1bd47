/**
 * The errors of the auth, account and social-login routes. Each answers its
 * status with `{statusCode, message, error}` (spec/api.md §0), `error` being
 * the contract's machine key when one is given, else the status text.
 */
import { Exception } from '@adonisjs/core/exceptions'

/** An auth error: `message` (default: the class's `defaultMessage`) and an optional machine key. */
abstract class AuthException extends Exception {
  /** The message when none is given. */
  static defaultMessage: string
  /** The contract's machine key, rendered as `error` (default: the status text). */
  declare errorKey?: string

  constructor(message?: string, errorKey?: string) {
    super(message ?? (new.target as typeof AuthException).defaultMessage)
    if (errorKey) this.errorKey = errorKey
  }
}

/** 401 "Unauthorized": the route needs a signed-in user. */
export class UnauthorizedException extends AuthException {
  static status = 401
  static code = 'E_UNAUTHORIZED'
  static defaultMessage = 'Unauthorized'
}

/** 403 "Forbidden": signed in, but not allowed (not an admin, cross-site request...). */
export class ForbiddenException extends AuthException {
  static status = 403
  static code = 'E_FORBIDDEN'
  static defaultMessage = 'Forbidden'
}

/**
 * 401 with a specific message and, optionally, a machine key in `error`
 * (e.g. "Login token expired" / `token_expired`).
 */
export class AuthenticationFailedException extends AuthException {
  static status = 401
  static code = 'E_AUTHENTICATION_FAILED'
  static defaultMessage = 'Unauthorized'
}

/** 400 "Bad Request" with the contract's message (and optionally a machine key). */
export class BadRequestException extends AuthException {
  static status = 400
  static code = 'E_BAD_REQUEST'
  static defaultMessage = 'Bad Request'
}

/** 404 "Not Found" with a message naming what was not found. */
export class NotFoundException extends AuthException {
  static status = 404
  static code = 'E_NOT_FOUND'
  static defaultMessage = 'Not Found'
}

/**
 * 429 "Too many requests". The exception handler answers `Retry-After`
 * (seconds) from `retryAfter` (see #services/auth/rate_limiter).
 */
export class TooManyRequestsException extends Exception {
  static status = 429
  static code = 'E_TOO_MANY_REQUESTS'

  /** Seconds until the caller may try again. */
  readonly retryAfter: number

  constructor(retryAfter: number, message = 'Too many requests') {
    super(message)
    this.retryAfter = retryAfter
  }
}
