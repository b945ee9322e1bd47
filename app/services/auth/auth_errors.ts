import { Exception } from '@adonisjs/core/exceptions'

/** 401 "Unauthorized": the route needs a signed-in user. */
export class UnauthorizedException extends Exception {
  static status = 401
  static code = 'E_UNAUTHORIZED'

  constructor(message = 'Unauthorized') {
    super(message)
  }
}

/** 403 "Forbidden": signed in, but not allowed (not an admin, cross-site request...). */
export class ForbiddenException extends Exception {
  static status = 403
  static code = 'E_FORBIDDEN'

  constructor(message = 'Forbidden') {
    super(message)
  }
}

/**
 * 401 with a specific message and, optionally, a machine key in `error`
 * (e.g. "Login token expired" / `token_expired`).
 */
export class AuthenticationFailedException extends Exception {
  static status = 401
  static code = 'E_AUTHENTICATION_FAILED'
  /** The contract's machine key, rendered as `error` (default: the status text). */
  declare errorKey?: string

  constructor(message: string, errorKey?: string) {
    super(message)
    if (errorKey) this.errorKey = errorKey
  }
}

/** 400 "Bad Request" with the contract's message (and optionally a machine key). */
export class BadRequestException extends Exception {
  static status = 400
  static code = 'E_BAD_REQUEST'
  /** The contract's machine key, rendered as `error` (default "Bad Request"). */
  declare errorKey?: string

  constructor(message: string, errorKey?: string) {
    super(message)
    if (errorKey) this.errorKey = errorKey
  }
}

/** 404 "Not Found" with a message naming what was not found. */
export class NotFoundException extends Exception {
  static status = 404
  static code = 'E_NOT_FOUND'

  constructor(message = 'Not Found') {
    super(message)
  }
}

/**
 * 429 "Too many requests". The `Retry-After` header (seconds) is set on the
 * response from `retryAfter` by the exception handler (see
 * #services/auth/rate_limiter).
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
