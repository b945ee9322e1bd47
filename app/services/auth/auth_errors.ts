/**
 * The errors of the auth, account and social-login routes. Each answers its
 * status with `{statusCode, message, error}` (Pingvin's error body), `error`
 * being the machine key clients branch on when there is one, else the status text.
 */
import { Exception } from '@adonisjs/core/exceptions'

/**
 * The base of an auth error answering `status` with `code`: `message`
 * (default: `defaultMessage`) and an optional machine key rendered as
 * `error` (default: the status text).
 */
function authException(status: number, code: string, defaultMessage: string) {
  return class AuthException extends Exception {
    static status = status
    static code = code
    /** The contract's machine key, rendered as `error` (default: the status text). */
    declare errorKey?: string

    constructor(message: string = defaultMessage, errorKey?: string) {
      super(message)
      if (errorKey) this.errorKey = errorKey
    }
  }
}

/** 401 "Unauthorized": the route needs a signed-in user. */
export class UnauthorizedException extends authException(401, 'E_UNAUTHORIZED', 'Unauthorized') {}

/** 403 "Forbidden": signed in, but not allowed (not an admin, cross-site request...). */
export class ForbiddenException extends authException(403, 'E_FORBIDDEN', 'Forbidden') {}

/**
 * 401 with a specific message and, optionally, a machine key in `error`
 * (e.g. "Login token expired" / `token_expired`).
 */
export class AuthenticationFailedException extends authException(
  401,
  'E_AUTHENTICATION_FAILED',
  'Unauthorized'
) {}

/** 400 "Bad Request" with the contract's message (and optionally a machine key). */
export class BadRequestException extends authException(400, 'E_BAD_REQUEST', 'Bad Request') {}

/** 404 "Not Found" with a message naming what was not found. */
export class NotFoundException extends authException(404, 'E_NOT_FOUND', 'Not Found') {}

/** 409 "Conflict" with a message naming what is already there (e.g. a token name in use). */
export class ConflictException extends authException(409, 'E_CONFLICT', 'Conflict') {}

/**
 * 503 "Service Unavailable" with its message (5xx bodies are otherwise
 * generic) and `Retry-After`: a service sign-in needs (an LDAP directory)
 * cannot answer now. The cause is logged where it happened, so reporting
 * adds one line without a stack.
 */
export class ServiceUnavailableException extends Exception {
  static status = 503
  static code = 'E_SERVICE_UNAVAILABLE'

  /** Seconds until the caller may try again. */
  readonly retryAfter = 30

  /** The exact API body (see #exceptions/error_body). */
  get responseBody() {
    return { statusCode: 503, message: this.message, error: 'Service Unavailable' }
  }

  report(_error: unknown, ctx: { logger: { warn(message: string): void } }) {
    ctx.logger.warn(`request refused with 503: ${this.message}`)
  }
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
