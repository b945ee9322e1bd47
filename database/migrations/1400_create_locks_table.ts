import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Locks of @adonisjs/lock's database store (config/lock.ts): which instance
 * runs a scheduled job right now. `expiration` is a timestamp in ms (null =
 * no expiry).
 */
export default class extends BaseSchema {
  protected tableName = 'locks'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('key', 255).notNullable().primary()
      table.string('owner', 255).notNullable()
      table.bigInteger('expiration').unsigned().nullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
