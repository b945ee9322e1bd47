import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Notification routes (app/services/notifications): which catalogue event
 * goes to which channel. `user_id` null is an instance route chosen by an
 * admin; otherwise the user's own route, with the language his texts are
 * rendered in (the one he used when he saved them). Deleted with the user.
 * The unique key holds for user routes; instance routes are replaced as a
 * whole, de-duplicated by the service (NULLs never collide in a unique key).
 */
export default class extends BaseSchema {
  protected tableName = 'notification_routes'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id')
      table.string('user_id', 36).nullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('event', 64).notNullable()
      table.string('channel', 64).notNullable()
      table.string('locale', 16).nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.unique(['user_id', 'event', 'channel'])
      table.index(['event'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
