import { BaseSchema } from '@adonisjs/lucid/schema'
import { timestampColumns, tokenHashColumn, userKeyColumns } from '#database/user_tables'

/**
 * Personal API tokens (a Tern addition): accepted as
 * `Authorization: Bearer <token>`. Only a digest is stored (`token_hash`);
 * `prefix` is the first characters of the token, kept for display. `scopes` is a
 * JSON array of strings. `expires_at` null = never expires. Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'api_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      userKeyColumns(table)
      table.string('name', 100).notNullable()
      tokenHashColumn(table)
      table.string('prefix', 32).notNullable()
      table.text('scopes').notNullable()
      table.dateTime('last_used_at', { useTz: true }).nullable()
      table.dateTime('expires_at', { useTz: true }).nullable()
      timestampColumns(table, { updatedAt: true })

      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
