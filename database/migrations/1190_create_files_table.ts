import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Files of a share. `size` is in bytes (bigint: files above
 * 4 GiB are normal). `disk` names the storage disk that holds the bytes and
 * `storage_key` their key on it. `completed` turns true when the last chunk is
 * stored. Deleted with their share (the stored bytes are removed by the service).
 */
export default class extends BaseSchema {
  protected tableName = 'files'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('share_id', 50)
        .notNullable()
        .references('id')
        .inTable('shares')
        .onDelete('CASCADE')
      table.string('name', 255).notNullable()
      table.bigInteger('size').notNullable().defaultTo(0)
      table.string('mime_type', 255).notNullable().defaultTo('application/octet-stream')
      table.string('disk', 64).notNullable()
      table.string('storage_key', 1024).notNullable()
      table.boolean('completed').notNullable().defaultTo(false)
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['share_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
