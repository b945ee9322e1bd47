import { BaseSchema } from '@adonisjs/lucid/schema'
import { tokenTableColumns } from '#database/user_tables'

/**
 * Password-reset tokens (`POST /api/auth/resetPassword`).
 * Hashed at rest, valid until `expires_at` (one hour). Deleted with their user.
 */
export default class extends BaseSchema {
  protected tableName = 'password_reset_tokens'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      tokenTableColumns(table, { updatedAt: false })
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
