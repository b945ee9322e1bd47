/** Coded errors of the e-mail plugin. */
import { createError } from '@adonisjs/core/exceptions'

/** A send was attempted while `smtp.enabled` is off. */
export const E_EMAIL_DISABLED = createError('SMTP is disabled', 'E_EMAIL_DISABLED', 400)

/** A required SMTP setting is empty (the message names it). */
export const E_EMAIL_NOT_CONFIGURED = createError<[setting: string]>(
  'SMTP is not configured: %s is not set',
  'E_EMAIL_NOT_CONFIGURED',
  400
)
