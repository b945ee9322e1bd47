import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The stylesheets of server-rendered pages (#services/pages/ssr_styles):
 * antd's CSS of a render, under its SHA-256, served as
 * `/ssr-styles/<hash>.css`. In the database so that every instance sharing
 * it (and every worker of a cluster) can answer a link another one rendered;
 * instances do not share DATA_DIR. A handful of rows per release (page kinds x
 * light/dark x ltr/rtl), ~130 KB each: MEDIUMTEXT on MySQL.
 */
export default class extends BaseSchema {
  protected tableName = 'ssr_stylesheets'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('hash', 64).primary()
      table.text('css', 'mediumtext').notNullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
