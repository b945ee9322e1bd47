/** Errors of the mail service, answered as 400 by the exception handler. */
import { Exception } from '@adonisjs/core/exceptions'

/** Mail cannot be sent: SMTP is disabled or no e-mail channel is enabled. */
export class MailDisabledException extends Exception {
  static status = 400
  static code = 'E_MAIL_DISABLED'

  constructor(message = 'SMTP is disabled', options?: ErrorOptions) {
    super(message, options)
  }
}

/**
 * The mail could not be delivered. `message` is the mailer's reason: the SMTP
 * server's reply ("... 550 No such user here"), the connection error
 * ("connect ECONNREFUSED 127.0.0.1:2525") or the missing setting.
 */
export class MailDeliveryException extends Exception {
  static status = 400
  static code = 'E_MAIL_DELIVERY_FAILED'
}
