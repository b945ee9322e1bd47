import { BaseSchema } from '@adonisjs/lucid/schema'
import { tokenTableColumns } from '#database/user_tables'

/**
 * Refresh tokens (cookie `refresh_token`). Only a SHA-256 hex
 * digest of the opaque token is stored. `oauth_id_token` keeps the OIDC id token
 * of a session that came from OIDC, for the provider's sign-out redirect.
 * Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'refresh_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      tokenTableColumns(table, {
        updatedAt: true,
        columns: () => table.text('oauth_id_token').nullable(),
      })
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
