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
