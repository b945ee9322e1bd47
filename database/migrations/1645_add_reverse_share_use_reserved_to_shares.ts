import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `shares.reverse_share_use_reserved`: one use of the share's reverse share
 * was taken for it when it was created (app/services/reverse_shares/
 * reverse_share_hooks.ts), and is given back if the share is removed before
 * it was ever completed. Shares that existed before are false: those still
 * uploading take their use when they complete, as they would have.
 */
export default class extends BaseSchema {
  protected tableName = 'shares'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.boolean('reverse_share_use_reserved').notNullable().defaultTo(false)
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropColumn('reverse_share_use_reserved')
    })
  }
}
