import { Exception } from '@adonisjs/core/exceptions'

/** 400 "The logo file is required": no `file` part in the multipart body (or not a multipart body). */
export class LogoMissingException extends Exception {
  static status = 400
  static code = 'E_LOGO_MISSING'

  constructor() {
    super('The logo file is required')
  }
}

/** 400 "The logo must be a PNG image": not a PNG, or a broken one. */
export class LogoNotPngException extends Exception {
  static status = 400
  static code = 'E_LOGO_NOT_PNG'

  constructor() {
    super('The logo must be a PNG image')
  }
}

/** 400 "The logo must be square (1:1)". */
export class LogoNotSquareException extends Exception {
  static status = 400
  static code = 'E_LOGO_NOT_SQUARE'

  constructor() {
    super('The logo must be square (1:1)')
  }
}

/** 400 "The logo must be at most {n}x{n} pixels". */
export class LogoDimensionsTooLargeException extends Exception {
  static status = 400
  static code = 'E_LOGO_DIMENSIONS_TOO_LARGE'

  constructor(maxDimension: number) {
    super(`The logo must be at most ${maxDimension}x${maxDimension} pixels`)
  }
}

/** 413 "The logo file must be at most {n} MB". */
export class LogoFileTooLargeException extends Exception {
  static status = 413
  static code = 'E_LOGO_FILE_TOO_LARGE'

  constructor(maxBytes: number) {
    super(`The logo file must be at most ${Math.round(maxBytes / 1024 / 1024)} MB`)
  }
}
