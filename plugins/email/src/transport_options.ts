/**
 * Maps the e-mail settings to the options of AdonisJS Mail's SMTP transport
 * (nodemailer's SMTP options).
 */
import type { SMTPConfig } from '@adonisjs/mail/types'
import type { EmailSettings } from './settings.js'

/** The port of SMTP over implicit TLS ("SMTPS"). */
export const IMPLICIT_TLS_PORT = 465

/** Connection, greeting and socket timeouts (ms): an admin's test must not hang for minutes. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
}

/**
 * Transport options for `settings`: port 465 connects with implicit TLS
 * (`secure: true`); any other port connects in plain text and upgrades with
 * STARTTLS when the server offers it (port 0 lets nodemailer pick 587).
 * AUTH is configured only when a username is set.
 * `allowUnauthorizedCertificates` turns certificate verification off.
 */
export function smtpTransportOptions(settings: EmailSettings): SMTPConfig {
  return {
    host: settings.host,
    port: settings.port > 0 ? settings.port : undefined,
    secure: settings.port === IMPLICIT_TLS_PORT,
    auth: settings.username
      ? { type: 'login', user: settings.username, pass: settings.password }
      : undefined,
    tls: { rejectUnauthorized: !settings.allowUnauthorizedCertificates },
    ...SMTP_TIMEOUTS,
  }
}
