/**
 * Helpers of the notification outbox tests (one process and several
 * instances): the deliveries table, the settings they change and reset,
 * polling until the outbox got somewhere, and pointing it at test servers.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import ConfigService from '#services/config/config_service'
import { useSmtp } from '#tests/helpers/smtp_server'
import { clearWebhookRoutes, routeToWebhook } from '#tests/helpers/webhook_routes'

/** The outbox's table. */
export const DELIVERIES_TABLE = 'notification_deliveries'

/** The settings the outbox tests change. */
export const OUTBOX_CONFIG_KEYS = [
  'smtp.enabled',
  'smtp.host',
  'smtp.port',
  'smtp.email',
  'webhook.enabled',
  'webhook.urls',
  'webhook.secret',
]

/** Empties the deliveries table, resets the settings of {@link OUTBOX_CONFIG_KEYS} and removes the webhook routes. */
export async function resetOutbox(): Promise<void> {
  await db.from(DELIVERIES_TABLE).delete()
  await ConfigVariable.query().whereIn('key', OUTBOX_CONFIG_KEYS).update({ value: null })
  await clearWebhookRoutes()
}

/**
 * Resolves with the first value `read` gives that `done` accepts, polled
 * every `intervalMs` (20 ms) for `timeoutMs` (10 s) at most; then throws naming `what`.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number } = {}
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20))
  }
}

/** Turns mail on, through an SMTP server on 127.0.0.1:`port`. */
export function useSmtpPort(port: number): Promise<void> {
  return useSmtp(port)
}

/**
 * Turns the webhook channel on, posting to `url` signed with `secret`, with
 * the instance routes of the lifecycle events to it (as migrated installs
 * have them). Each routed event is one row of the channel with target ''
 * (handed to the channel), then one row per URL (the request).
 */
export async function useWebhook(url: string, secret: string): Promise<void> {
  await routeToWebhook()
  const configService = await app.container.make(ConfigService)
  await configService.update([
    { key: 'webhook.enabled', value: true },
    { key: 'webhook.urls', value: url },
    { key: 'webhook.secret', value: secret },
  ])
}
