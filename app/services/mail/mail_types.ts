/**
 * The names, types and helpers of the mail service (`#services/mail/mail_service`
 * re-exports them all).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** The notification channel mails are sent through. */
export const MAIL_CHANNEL = 'email'

/** Notification types of the mails the core sends. */
export const MAIL_TYPES = {
  passwordReset: 'auth:password_reset',
  invite: 'user:invite',
  test: 'mail:test',
} as const

/** Subject and text of the test mail (`{appName}` is replaced). */
export const TEST_MAIL_TEMPLATE = {
  subject: 'Test email',
  text: 'This is a test email from {appName}.\n\nIf you can read it, the SMTP settings work.',
}

/** The config variables holding a mail's subject and text templates. */
export interface MailTemplate {
  subjectKey: string
  textKey: string
}

/** The outbox channel of password-reset requests (its work ends in a mail; `idle()` waits for it). */
export const PASSWORD_RESET_CHANNEL = 'password_reset'

/** One mail to send (already rendered). */
export interface OutgoingMail {
  /** Notification type, e.g. `auth:password_reset`. */
  type: string
  /** One address or several (all in the To header of one mail). */
  to: string | string[]
  subject: string
  text: string
  html?: string
  /** Structured data for other notification channels. */
  data?: Record<string, unknown>
}

/** Context fields logged with a queued mail that failed for good (`{ userId, shareId }`). */
export type MailLogContext = Record<string, unknown>

/** How a queued mail is stored in the outbox. */
export interface QueueOptions {
  /** The event the mail belongs to: queuing the same event for the same target twice sends one mail. */
  eventId: string
  /** Distinguishes the mails of one event (default: the addresses). */
  target?: string
  /** Logged with a delivery that failed for good. */
  log?: MailLogContext
  /** The transaction of the change that caused the mail. */
  client?: QueryClientContract
}

/** The reason a send failed, as the mailer put it (the channel's error inside the notification error). */
export function deliveryFailureReason(error: unknown): string {
  let current: unknown = error
  while (
    current instanceof Error &&
    (current as { code?: string }).code === 'E_NOTIFICATION_SEND_FAILED' &&
    current.cause
  ) {
    current = current.cause
  }
  if (current instanceof Error && current.message) return current.message
  return String(current)
}
