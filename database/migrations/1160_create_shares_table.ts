import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Shares. The id is chosen by the uploader (up to 50 chars).
 * `expiration` null = never expires. `creator_id` null = anonymous share, owned
 * by the browser holding the ownership cookie whose digest is `owner_token_hash`.
 * `removed_reason` set = removed by an admin (answered as `share_removed`).
 * Deleted with their creator and with their reverse share.
 */
export default class extends BaseSchema {
  protected tableName = 'shares'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 50).primary()
      table.string('name', 255).nullable()
      table.text('description').nullable()
      table.dateTime('expiration', { useTz: true }).nullable()
      table.integer('views').notNullable().defaultTo(0)
      table.boolean('completed').notNullable().defaultTo(false)
      table.text('removed_reason').nullable()
      table
        .string('creator_id', 36)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table
        .string('reverse_share_id', 36)
        .nullable()
        .references('id')
        .inTable('reverse_shares')
        .onDelete('CASCADE')
      table.string('owner_token_hash', 128).nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['creator_id'])
      table.index(['reverse_share_id'])
      table.index(['expiration'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
