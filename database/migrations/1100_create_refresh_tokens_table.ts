import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Refresh tokens (spec/api.md §1, cookie `refresh_token`). Only a SHA-256 hex
 * digest of the opaque token is stored. `oauth_id_token` keeps the OIDC id token
 * of a session that came from OIDC, for the provider's sign-out redirect.
 * Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'refresh_tokens'

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
      table.text('oauth_id_token').nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['user_id'])
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
