import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Password-reset tokens (spec/api.md §1, `POST /api/auth/resetPassword`).
 * Hashed at rest, valid until `expires_at` (one hour). Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'password_reset_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('user_id', 36)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('token_hash', 128).notNullable().unique()
      table.dateTime('expires_at', { useTz: true }).notNullable()
      table.dateTime('created_at', { useTz: true }).notNullable()

      table.index(['user_id'])
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
