import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Upload sessions of the chunk protocol: one per file being uploaded.
 * `multipart_upload_id` is set when the disk needs one (S3-like multipart
 * uploads). The chunks received so far are rows of `upload_chunks`. Deleted with
 * its file and with its share.
 */
export default class extends BaseSchema {
  protected tableName = 'upload_sessions'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('file_id', 36)
        .notNullable()
        .unique()
        .references('id')
        .inTable('files')
        .onDelete('CASCADE')
      table
        .string('share_id', 50)
        .notNullable()
        .references('id')
        .inTable('shares')
        .onDelete('CASCADE')
      table.integer('total_chunks').notNullable()
      table.bigInteger('chunk_size').notNullable()
      table.string('multipart_upload_id', 1024).nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()

      table.index(['share_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
