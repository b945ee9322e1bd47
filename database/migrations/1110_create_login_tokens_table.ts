import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Login tokens: the second step of a sign-in with TOTP (spec/api.md §1,
 * `POST /api/auth/signIn/totp`). Hashed at rest, short-lived (`expires_at`) and
 * single use (`used_at` is set when consumed). `oauth_id_token` carries the OIDC
 * id token through the TOTP step of a social sign-in. Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'login_tokens'

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
      table.dateTime('used_at', { useTz: true }).nullable()
      table.text('oauth_id_token').nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()

      table.index(['user_id'])
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
