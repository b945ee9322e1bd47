import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Reverse shares: a link through which others upload a share
 * for the creator. `share_expiration` null = never; `remaining_uses` null =
 * unlimited; `max_share_size` in bytes. Deleted with their creator; deleting a
 * reverse share deletes its shares (see the shares table).
 */
export default class extends BaseSchema {
  protected tableName = 'reverse_shares'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table.string('token', 128).notNullable().unique()
      table
        .string('creator_id', 36)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.dateTime('share_expiration', { useTz: true }).nullable()
      table.bigInteger('max_share_size').notNullable()
      table.boolean('send_email_notification').notNullable().defaultTo(false)
      table.integer('remaining_uses').nullable()
      table.boolean('simplified').notNullable().defaultTo(false)
      table.boolean('public_access').notNullable().defaultTo(true)
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['creator_id'])
      table.index(['share_expiration'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
