import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { notifications } from '#extensions/notifications/main'
import { NTFY_CHANNEL_NAME, NtfyChannel } from './src/ntfy_channel.js'
import { readNtfySettings } from './src/settings.js'

/** Contributes the `ntfy` channel (settings read at each attempt). */
export default class NtfyProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    notifications.register(
      NTFY_CHANNEL_NAME,
      () =>
        new NtfyChannel({
          settings: () => readNtfySettings(),
          userAgent: `Tern-ntfy/${this.context.manifest.version}`,
        })
    )
  }
}
