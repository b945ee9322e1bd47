/**
 * The `email` notification channel: sends each notification as one e-mail
 * over SMTP with AdonisJS Mail. The SMTP settings are read on every send and
 * a mailer is built for that send only (and closed after it), so a change in
 * the admin settings applies to the next mail, without restart and without
 * state another instance would need.
 *
 * Routed events (`deliver`) go to the recipient's address for a user route
 * and to the `emailNotifications.recipients` list for an instance route,
 * with a Message-ID derived from the event id, so a retried delivery is the
 * same message to the receiving servers.
 */
import { createHash } from 'node:crypto'
import { NotificationDeliveryError } from '#extensions/notifications/delivery_error'
import { Mailer } from '@adonisjs/mail'
import { SMTPTransport } from '@adonisjs/mail/transports/smtp'
import type { MailEvents } from '@adonisjs/mail/types'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type {
  Notification,
  NotificationChannelContract,
  NotificationMessage,
} from '#extensions/notifications/main'
import { E_EMAIL_DISABLED, E_EMAIL_NOT_CONFIGURED } from './errors.js'
import type { EmailSettings, EmailSettingsSource } from './settings.js'
import { smtpTransportOptions } from './transport_options.js'

/** The name the channel is registered under. */
export const EMAIL_CHANNEL_NAME = 'email'

/** What the channel needs. */
export interface EmailChannelOptions {
  /** Reads the current SMTP settings (called on every send). */
  settings: EmailSettingsSource
  /** Receives AdonisJS Mail's `mail:sending` / `mail:sent` events (the app emitter). */
  emitter: EmitterLike<MailEvents>
  /** Reads the addresses of instance routes (`emailNotifications.recipients`), at each delivery. */
  recipients?: () => Promise<string[]>
}

/**
 * The Message-ID of routed event `eventId` sent to `to`: the same for every
 * attempt of that delivery, different per event and recipients.
 */
export function notificationMessageId(eventId: string, to: readonly string[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([eventId, [...to].sort()]))
    .digest('hex')
    .slice(0, 32)
  return `<${digest}@notifications.tern>`
}

/** The SMTP reply code an error of the mailer carries, if any. */
function smtpCode(error: unknown): number | undefined {
  let current = error as { responseCode?: unknown; cause?: unknown } | undefined
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.responseCode === 'number') return current.responseCode
    current = current.cause as typeof current
  }
  return undefined
}

/**
 * Checks that `settings` allow sending: throws `E_EMAIL_DISABLED` when SMTP
 * is off and `E_EMAIL_NOT_CONFIGURED` naming `smtp.host` or `smtp.email` when
 * one is empty.
 */
export function assertSendable(settings: EmailSettings): void {
  if (!settings.enabled) throw new E_EMAIL_DISABLED()
  if (!settings.host) throw new E_EMAIL_NOT_CONFIGURED(['smtp.host'])
  if (!settings.from) throw new E_EMAIL_NOT_CONFIGURED(['smtp.email'])
}

/**
 * An AdonisJS mailer over SMTP for `settings`, with From = `smtp.email` and
 * the app name as display name. Close it after use.
 */
export function createSmtpMailer(settings: EmailSettings, emitter: EmitterLike<MailEvents>) {
  return new Mailer('smtp', new SMTPTransport(smtpTransportOptions(settings)), emitter, {
    from: settings.fromName ? { address: settings.from, name: settings.fromName } : settings.from,
  })
}

/** See the module comment. */
export class EmailChannel implements NotificationChannelContract {
  /** Every event of the catalogue; a user (his address) and the instance (the recipients list). */
  readonly targets = { user: true, instance: true }

  constructor(protected options: EmailChannelOptions) {}

  /** Only while SMTP is on (`smtp.enabled`): users are not offered e-mail routes that could only fail. */
  async available(): Promise<boolean> {
    const settings = await this.options.settings()
    return settings.enabled
  }

  /**
   * Sends routed event `message` as one mail (its rendered subject and text)
   * to the recipient, or to the instance recipients list when it has none.
   * Resolves once the SMTP server accepted it. Rejects with
   * `NotificationDeliveryError` (code `E_NOTIFICATION_DELIVERY_FAILED`):
   * not retryable while SMTP is off or not configured, when the list is
   * empty, or on an SMTP 5xx refusal; retryable on anything else
   * (connection refused, 4xx).
   */
  async deliver(message: NotificationMessage): Promise<void> {
    const settings = await this.options.settings()
    try {
      assertSendable(settings)
    } catch (error) {
      throw new NotificationDeliveryError((error as Error).message, {
        retryable: false,
        cause: error,
      })
    }
    const to = message.recipient
      ? [message.recipient.email]
      : ((await this.options.recipients?.()) ?? [])
    if (to.length === 0) {
      throw new NotificationDeliveryError(
        'No address receives instance notifications: emailNotifications.recipients is empty',
        {
          retryable: false,
        }
      )
    }
    const mailer = createSmtpMailer(settings, this.options.emitter)
    try {
      await mailer.send((mail) => {
        for (const address of to) mail.to(address)
        mail.subject(message.rendered.subject).text(message.rendered.text)
        if (message.rendered.html) mail.html(message.rendered.html)
        mail.messageId(notificationMessageId(message.eventId, to))
        mail.header('X-Tern-Event', message.event)
      })
    } catch (error) {
      const code = smtpCode(error)
      throw new NotificationDeliveryError((error as Error)?.message ?? String(error), {
        retryable: !(code !== undefined && code >= 500),
        cause: error,
      })
    } finally {
      await mailer.close()
    }
  }

  /**
   * Sends `notification` as one mail to all of `notification.to` (subject,
   * text, optional HTML). Resolves when the SMTP server accepted it; rejects
   * with the SMTP client's error (its message carries the server's reply,
   * e.g. "550 ...", or the connection error) or with `E_EMAIL_DISABLED` /
   * `E_EMAIL_NOT_CONFIGURED`. A notification without recipients is a no-op.
   */
  async send(notification: Notification): Promise<void> {
    const settings = await this.options.settings()
    assertSendable(settings)
    if (notification.to.length === 0) return

    const mailer = createSmtpMailer(settings, this.options.emitter)
    try {
      await mailer.send((message) => {
        for (const address of notification.to) message.to(address)
        message.subject(notification.subject).text(notification.text)
        if (notification.html) message.html(notification.html)
      })
    } finally {
      await mailer.close()
    }
  }

  /** Nothing to release: every send uses its own connection. */
  async close(): Promise<void> {}
}
