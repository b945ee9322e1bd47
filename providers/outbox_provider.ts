import type { ApplicationService } from '@adonisjs/core/types'

/**
 * The notification outbox (app/services/outbox): at `boot` the process's
 * `OutboxService` becomes a container singleton. In web server and test
 * processes, at `ready` the core's password-reset requests get their
 * handler, every notification channel gets the handler of routed events
 * (its `deliver`) in front of its own handler or the default one (send
 * through the channel), and the worker starts (in
 * test processes on the first enqueue, once the test database is migrated).
 * At shutdown the worker stops: attempts in flight are abandoned and
 * retried later by any instance.
 */
export default class OutboxProvider {
  constructor(protected app: ApplicationService) {}

  async boot() {
    const { default: OutboxService, outbox } = await import('#services/outbox/outbox_service')
    this.app.container.singleton(OutboxService, () => outbox)
    // Plugins reach it through the extension point (handlers they registered earlier are handed over now).
    const { notificationOutbox } = await import('#extensions/outbox/main')
    notificationOutbox.bind(outbox)
  }

  async ready() {
    const environment = this.app.getEnvironment()
    if (environment !== 'web' && environment !== 'test') return
    const { default: OutboxService } = await import('#services/outbox/outbox_service')
    const { notifications } = await import('#extensions/notifications/main')
    const { channelHandler, routedHandler } = await import('#services/outbox/channel_handler')
    const { default: PasswordResetService } = await import('#services/auth/password_reset_service')
    const { PASSWORD_RESET_CHANNEL } = await import('#services/mail/mail_service')
    const passwordResetService = await this.app.container.make(PasswordResetService)
    const outbox = await this.app.container.make(OutboxService)
    outbox.handle(PASSWORD_RESET_CHANNEL, {
      deliver: (delivery) => passwordResetService.handleRequest(delivery),
    })
    // Routed events (NotificationRouter) go to the channel's `deliver`; other rows to the
    // channel's own handler when it registered one (webhook), else through `send`.
    for (const name of notifications.names()) {
      const own = outbox.handlers.get(name) ?? channelHandler(notifications, name)
      outbox.handle(name, routedHandler(notifications, name, own))
    }
    if (environment === 'test') outbox.startOnDemand = true
    else outbox.worker.start()
  }

  async shutdown() {
    const { default: OutboxService } = await import('#services/outbox/outbox_service')
    const outbox = await this.app.container.make(OutboxService)
    await outbox.worker.stop()
  }
}
