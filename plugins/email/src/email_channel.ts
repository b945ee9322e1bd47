/**
 * The `email` notification channel: sends each notification as one e-mail
 * over SMTP with AdonisJS Mail. The SMTP settings are read on every send and
 * a mailer is built for that send only (and closed after it), so a change in
 * the admin settings applies to the next mail, without restart and without
 * state another instance would need.
 */
import { Mailer } from '@adonisjs/mail'
import { SMTPTransport } from '@adonisjs/mail/transports/smtp'
import type { MailEvents } from '@adonisjs/mail/types'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type { Notification, NotificationChannelContract } from '#extensions/notifications/main'
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
  constructor(protected options: EmailChannelOptions) {}

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
