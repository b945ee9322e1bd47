import { DateTime } from 'luxon'
import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The events the webhook plugin sent by itself (its hook listeners) before
 * notification routing existed.
 */
const LIFECYCLE_EVENTS = [
  'share.created',
  'share.completed',
  'share.downloaded',
  'share.expired',
  'share.deleted',
  'reverse_share.used',
]

/**
 * Now the webhook plugin only receives the events an admin routes to the
 * `webhook` channel. So that an install that had webhooks configured keeps
 * receiving what it received, this adds the instance routes of those six
 * events to `webhook` when a webhook URL is stored (`webhook.urls`
 * non-empty). The `webhook.enabled` switch and the `webhook.events` filter
 * still apply on top, as before. Fresh installs get no route (the
 * catalogue's default); routes already there are kept. `down` removes the
 * instance routes of those six events to `webhook`.
 */
export default class extends BaseSchema {
  protected tableName = 'notification_routes'

  async up() {
    this.defer(async (db) => {
      const stored = await db
        .from('config_variables')
        .where('key', 'webhook.urls')
        .select('value')
        .first()
      if (!stored || String(stored.value ?? '').trim() === '') return
      const existing = await db
        .from(this.tableName)
        .whereNull('user_id')
        .where('channel', 'webhook')
        .select('event')
      const routed = new Set(existing.map((row: { event: string }) => row.event))
      const missing = LIFECYCLE_EVENTS.filter((event) => !routed.has(event))
      if (missing.length === 0) return
      // As the model's dateTime column stores it on this dialect.
      const now = DateTime.now().toFormat(db.dialect.dateTimeFormat)
      await db.table(this.tableName).multiInsert(
        missing.map((event) => ({
          user_id: null,
          event,
          channel: 'webhook',
          locale: null,
          created_at: now,
        }))
      )
    })
  }

  async down() {
    this.defer(async (db) => {
      await db
        .from(this.tableName)
        .whereNull('user_id')
        .where('channel', 'webhook')
        .whereIn('event', LIFECYCLE_EVENTS)
        .delete()
    })
  }
}
