/**
 * Public surface of the e-mail plugin.
 */
export { manifest } from './manifest.js'
export {
  EmailChannel,
  EMAIL_CHANNEL_NAME,
  assertSendable,
  createSmtpMailer,
  notificationMessageId,
  type EmailChannelOptions,
} from './src/email_channel.js'
export {
  EMAIL_SETTINGS_KEYS,
  EMAIL_NOTIFICATION_RECIPIENTS_KEY,
  emailNotificationsConfigCategory,
  parseRecipientList,
  emailSettingsFrom,
  type EmailSettings,
  type EmailSettingsSource,
} from './src/settings.js'
export { smtpTransportOptions, IMPLICIT_TLS_PORT, SMTP_TIMEOUTS } from './src/transport_options.js'
export { E_EMAIL_DISABLED, E_EMAIL_NOT_CONFIGURED } from './src/errors.js'
