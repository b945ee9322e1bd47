import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `shares.completed_at`: when the share was completed for the first time
 * (null = never completed). The unfinished-share cleanup only removes shares
 * that were never completed, never a share reopened for editing.
 */
export default class extends BaseSchema {
  protected tableName = 'shares'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dateTime('completed_at', { useTz: true }).nullable()
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('completed_at')
    })
  }
}
