import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Stored values of the configuration variables. The definitions (type,
 * default, category, validation...) live in code (app/services/config and
 * plugin categories); a row only holds the admin's value. `value` null means
 * "unset": the effective value is the definition's default.
 */
export default class extends BaseSchema {
  protected tableName = 'config_variables'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      // 191 chars keeps the primary key indexable on MySQL utf8mb4.
      table.string('key', 191).primary()
      table.text('value').nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
