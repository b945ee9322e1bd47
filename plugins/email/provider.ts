import type { ApplicationService } from '@adonisjs/core/types'
import type { MailEvents } from '@adonisjs/mail/types'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { notifications } from '#extensions/notifications/main'
import { EMAIL_CHANNEL_NAME, EmailChannel } from './src/email_channel.js'
import { EMAIL_SETTINGS_KEYS, emailSettingsFrom, type EmailSettings } from './src/settings.js'

/**
 * Reads the current SMTP settings from the core configuration.
 *
 * The plugin API has no config reader for plugins yet (the `smtp.*`
 * variables are core variables), so this one place imports the core config
 * service lazily, at send time. Replace it with the extension point's reader
 * once the core offers one.
 */
async function readSettings(): Promise<EmailSettings> {
  const { configService } = await import('#services/config/config_service')
  const snapshot = await configService.snapshot()
  return emailSettingsFrom((key: (typeof EMAIL_SETTINGS_KEYS)[number]) => snapshot.get(key))
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
    notifications.register(EMAIL_CHANNEL_NAME, () => new EmailChannel({ settings: readSettings, emitter }))
  }
}
