import { BaseSchema } from '@adonisjs/lucid/schema'
import { tokenTableColumns } from '#database/user_tables'

/**
 * Login tokens: the second step of a sign-in with TOTP
 * (`POST /api/auth/signIn/totp`). Hashed at rest, short-lived (`expires_at`) and
 * single use (`used_at` is set when consumed). `oauth_id_token` carries the OIDC
 * id token through the TOTP step of a social sign-in. Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'login_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      tokenTableColumns(table, {
        updatedAt: false,
        columns: () => {
          table.dateTime('used_at', { useTz: true }).nullable()
          table.text('oauth_id_token').nullable()
        },
      })
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
