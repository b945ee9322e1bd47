import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { adminContributions } from '#extensions/admin/main'
import { notifications } from '#extensions/notifications/main'
import { retryPolicyFromEnv } from './src/backoff.js'
import { WEBHOOK_CHANNEL_NAME, WebhookChannel } from './src/channels/webhook_channel.js'
import { readWebhookSettings } from './src/settings.js'
import { WebhookDispatcher } from './src/webhook_dispatcher.js'

declare module '@adonisjs/core/types' {
  interface ContainerBindings {
    /** The webhook plugin's delivery queue (tests wait on `idle()`). */
    'webhook.dispatcher': WebhookDispatcher
  }
}

/**
 * Binds the delivery queue, contributes the `webhook` channel (the events
 * admins route to it) and its deliveries page in the admin panel, and on
 * shutdown aborts requests in flight.
 */
export default class WebhookProvider {
  #dispatcher?: WebhookDispatcher

  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  /** Binds `webhook.dispatcher` (settings read per event through the config extension point). */
  register() {
    this.app.container.singleton('webhook.dispatcher', async (resolver) => {
      const logger = await resolver.make('logger')
      return new WebhookDispatcher({
        settings: () => readWebhookSettings(),
        logger: logger.child({ plugin: this.context.manifest.id }),
        userAgent: `Tern-Webhook/${this.context.manifest.version}`,
        retry: retryPolicyFromEnv((name) => this.context.env.get(name)),
      })
    })
  }

  /** Contributes the channel and the admin page (plugins/webhook/admin/index.tsx). */
  async boot() {
    const dispatcher = await this.app.container.make('webhook.dispatcher')
    this.#dispatcher = dispatcher
    notifications.register(WEBHOOK_CHANNEL_NAME, () => new WebhookChannel(dispatcher))
    adminContributions.contribute(this.context.manifest.id, {
      menu: [
        { key: 'deliveries', label: 'Webhook deliveries', path: '/plugins/webhook/deliveries' },
      ],
      configCategories: ['webhook'],
    })
  }

  /** Aborts requests in flight (their rows stay queued) and stops handling the channel here. */
  async shutdown() {
    await this.#dispatcher?.close()
  }
}
