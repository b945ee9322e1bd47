import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The notification outbox (app/services/outbox): one row per event and
 * channel (and target: a recipient address, a webhook URL), worked by
 * whichever instance claims it. Times are Unix milliseconds in bigint
 * columns, so the claim's comparisons mean the same on SQLite, MySQL and
 * PostgreSQL whatever the server's time zone.
 */
export default class extends BaseSchema {
  protected tableName = 'notification_deliveries'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).notNullable().primary()
      /** sha256 of (event id, channel, target): a second enqueue of the same delivery is a no-op. */
      table.string('dedupe_key', 64).notNullable().unique()
      table.string('event_id', 191).notNullable()
      table.string('event_type', 100).notNullable()
      table.string('channel', 64).notNullable()
      table.string('target', 512).notNullable().defaultTo('')
      /** JSON of what the channel needs; emptied once delivered (it may hold links with tokens). */
      table.text('payload', 'longtext').nullable()
      /** pending | delivered | failed */
      table.string('status', 16).notNullable()
      table.integer('attempts').unsigned().notNullable().defaultTo(0)
      table.integer('max_attempts').unsigned().notNullable()
      table.bigInteger('next_attempt_at').notNullable()
      table.bigInteger('locked_until').nullable()
      table.string('locked_by', 64).nullable()
      table.string('last_error', 1000).nullable()
      table.bigInteger('created_at').notNullable()
      table.bigInteger('updated_at').notNullable()
      table.bigInteger('delivered_at').nullable()
      table.index(['status', 'next_attempt_at'], 'notification_deliveries_due_index')
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
