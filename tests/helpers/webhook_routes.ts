/**
 * Instance routes to the `webhook` channel for tests: since notification
 * routing, the webhook plugin receives only the events an admin routed to
 * it (the HTTP API for that is `PUT /api/notifications/routes`, tested in
 * the webhook and routing specs; this writes the rows directly).
 *
 * ```ts
 * await routeToWebhook()                    // the six lifecycle events, as migrated installs have them
 * await routeToWebhook(['share.created'])
 * await clearWebhookRoutes()
 * ```
 */
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'

/** The events the webhook plugin sent before routing (and that migrated installs keep routed). */
export const WEBHOOK_LIFECYCLE_EVENTS = [
  'share.created',
  'share.completed',
  'share.downloaded',
  'share.expired',
  'share.deleted',
  'reverse_share.used',
]

/** Replaces the instance routes to `webhook` by routes for `events`. */
export async function routeToWebhook(
  events: readonly string[] = WEBHOOK_LIFECYCLE_EVENTS
): Promise<void> {
  await clearWebhookRoutes()
  const createdAt = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
  for (const event of events) {
    await db
      .table('notification_routes')
      .insert({ user_id: null, event, channel: 'webhook', locale: null, created_at: createdAt })
  }
}

/** Removes every instance route to `webhook`. */
export async function clearWebhookRoutes(): Promise<void> {
  await db.from('notification_routes').whereNull('user_id').where('channel', 'webhook').delete()
}
