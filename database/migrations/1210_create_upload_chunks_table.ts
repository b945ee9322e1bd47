import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Chunks received for an upload session. The unique pair
 * (upload_session_id, chunk_index) guarantees that a retried chunk is never
 * recorded twice. `etag` is the part's etag on disks with multipart uploads.
 * Deleted with their session.
 */
export default class extends BaseSchema {
  protected tableName = 'upload_chunks'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table
        .string('upload_session_id', 36)
        .notNullable()
        .references('id')
        .inTable('upload_sessions')
        .onDelete('CASCADE')
      table.integer('chunk_index').notNullable()
      table.bigInteger('size').notNullable()
      table.string('etag', 255).nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()

      table.unique(['upload_session_id', 'chunk_index'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
