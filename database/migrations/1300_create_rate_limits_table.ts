import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Rate-limit counters of @adonisjs/limiter's database store (sign-in, TOTP,
 * sign-up, password reset, share passwords). One row per limited key: consumed
 * `points` and the window's end `expire` (ms since the epoch). Shared by every Tern
 * process using the database; unused when the counters live in Redis.
 */
export default class extends BaseSchema {
  protected tableName = 'rate_limits'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('key', 255).notNullable().primary()
      table.integer('points', 9).notNullable().defaultTo(0)
      table.bigint('expire').unsigned()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
