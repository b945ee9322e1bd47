import type { ApplicationService } from '@adonisjs/core/types'
import type { MailEvents } from '@adonisjs/mail/types'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { notifications } from '#extensions/notifications/main'
import { configValues } from '#extensions/config/config_values'
import { EMAIL_CHANNEL_NAME, EmailChannel } from './src/email_channel.js'
import {
  EMAIL_NOTIFICATION_RECIPIENTS_KEY,
  EMAIL_SETTINGS_KEYS,
  emailSettingsFrom,
  parseRecipientList,
  type EmailSettings,
} from './src/settings.js'

/**
 * Reads the current SMTP settings (core `smtp.*` variables) through the config
 * extension point, in one query, at send time: an admin change applies to the
 * next mail without restart.
 */
async function readSettings(): Promise<EmailSettings> {
  const values = await configValues.getMany(EMAIL_SETTINGS_KEYS)
  return emailSettingsFrom((key: (typeof EMAIL_SETTINGS_KEYS)[number]) => values[key])
}

/** The instance recipients of routed events, read at each delivery. */
async function readRecipients(): Promise<string[]> {
  const values = await configValues.getMany([EMAIL_NOTIFICATION_RECIPIENTS_KEY])
  return parseRecipientList(values[EMAIL_NOTIFICATION_RECIPIENTS_KEY])
}

/** Registers the `email` notification channel. */
export default class EmailProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  /** Contributes the channel. */
  async boot() {
    const emitter = (await this.app.container.make('emitter')) as unknown as EmitterLike<MailEvents>
    notifications.register(
      EMAIL_CHANNEL_NAME,
      () => new EmailChannel({ settings: readSettings, emitter, recipients: readRecipients })
    )
  }
}
