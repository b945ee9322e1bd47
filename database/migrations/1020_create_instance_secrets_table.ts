import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Secrets generated once per Tern instance (e.g. the HS256 key of the JWTs),
 * shared by every process that uses the same database and never committed.
 */
export default class extends BaseSchema {
  protected tableName = 'instance_secrets'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('name', 64).primary()
      table.text('value').notNullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
