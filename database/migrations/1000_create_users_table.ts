import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Users. `password` is a scrypt hash and is null for accounts
 * created through a social login only. TOTP columns back the two-factor flow:
 * `totp_last_step` is the last accepted time step, so a code cannot be replayed.
 */
export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 36).primary()
      table.string('username', 32).notNullable().unique()
      table.string('email', 255).notNullable().unique()
      table.string('password').nullable()
      table.boolean('is_admin').notNullable().defaultTo(false)
      table.string('totp_secret').nullable()
      table.boolean('totp_verified').notNullable().defaultTo(false)
      table.bigInteger('totp_last_step').nullable()
      table.dateTime('created_at', { useTz: true }).notNullable()
      table.dateTime('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
