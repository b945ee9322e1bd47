import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Personal API tokens (spec/api.md §1, ext): accepted as
 * `Authorization: Bearer <token>`. Only a digest is stored (`token_hash`);
 * `prefix` is the first characters of the token, kept for display. `scopes` is a
 * JSON array of strings. `expires_at` null = never expires. Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'api_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('user_id', 36)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('name', 100).notNullable()
      table.string('token_hash', 128).notNullable().unique()
      table.string('prefix', 32).notNullable()
      table.text('scopes').notNullable()
      table.dateTime('last_used_at', { useTz: true }).nullable()
      table.dateTime('expires_at', { useTz: true }).nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
