import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `files.upload_key`: the `Idempotency-Key` a client sent with a file's first
 * chunk (null when it sent none). A first chunk retried after its answer was
 * lost carries the same key and lands in the same file instead of creating a
 * second one. Unique per share.
 */
export default class extends BaseSchema {
  protected tableName = 'files'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.string('upload_key', 64).nullable()
      table.unique(['share_id', 'upload_key'])
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropUnique(['share_id', 'upload_key'])
      table.dropColumn('upload_key')
    })
  }
}
