import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The ledger of `node ace pingvin:import` (docs/design/pingvin_import.md §8):
 * one row per Pingvin row imported (or being imported), keyed by the source
 * instance, its table and its key. A second run skips what is here, and a
 * row here is never reported as a collision. `state` is `pending` while a
 * share's files are being copied and `done` once it is complete; a run that
 * died midway finishes its pending units.
 */
export default class extends BaseSchema {
  protected tableName = 'pingvin_import_rows'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('source_id', 64).notNullable()
      table.string('source_table', 32).notNullable()
      table.string('source_key', 100).notNullable()
      table.string('target_table', 32).notNullable()
      table.string('target_key', 100).notNullable()
      table.string('state', 16).notNullable()
      table.dateTime('imported_at', { useTz: true }).notNullable()
      table.primary(['source_id', 'source_table', 'source_key'])
      table.index(['target_table', 'target_key'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
