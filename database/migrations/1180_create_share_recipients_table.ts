import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * E-mail recipients of a share. Deleted with their share.
 */
export default class extends BaseSchema {
  protected tableName = 'share_recipients'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('share_id', 50)
        .notNullable()
        .references('id')
        .inTable('shares')
        .onDelete('CASCADE')
      table.string('email', 255).notNullable()
      table.dateTime('created_at', { useTz: true }).notNullable()

      table.index(['share_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
