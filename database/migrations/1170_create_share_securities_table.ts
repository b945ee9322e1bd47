import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Share security: at most one row per share, holding the share
 * password hash and the view limit (null = none). Deleted with its share.
 */
export default class extends BaseSchema {
  protected tableName = 'share_securities'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('share_id', 50)
        .notNullable()
        .unique()
        .references('id')
        .inTable('shares')
        .onDelete('CASCADE')
      table.string('password', 255).nullable()
      table.integer('max_views').nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
