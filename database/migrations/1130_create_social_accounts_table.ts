import { BaseSchema } from '@adonisjs/lucid/schema'
import { timestampColumns, userKeyColumns } from '#database/user_tables'

/**
 * Social accounts linked to a user (social login). One account per provider
 * per user, and a provider account links to at most one user. Deleted with
 * their user.
 */
export default class extends BaseSchema {
  protected tableName = 'social_accounts'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      userKeyColumns(table)
      table.string('provider', 64).notNullable()
      table.string('provider_user_id', 255).notNullable()
      table.string('provider_username', 255).notNullable()
      timestampColumns(table, { updatedAt: true })

      table.unique(['provider', 'provider_user_id'])
      table.unique(['user_id', 'provider'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
