import { BaseSchema } from '@adonisjs/lucid/schema'
import { timestampColumns, userKeyColumns } from '#database/user_tables'

/**
 * The devices each user signed in from (app/services/auth/known_devices.ts),
 * as fingerprints: a SHA-256 digest of the user id, the browser and OS
 * families and the network (IPv4 /24, IPv6 /64); never the raw user agent or
 * address. A sign-in from a fingerprint the user does not have yet (and who
 * has one already) emits `auth.new_device_sign_in`. Deleted with the user.
 */
export default class extends BaseSchema {
  protected tableName = 'known_devices'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      userKeyColumns(table)
      table.string('fingerprint', 64).notNullable()
      timestampColumns(table, { updatedAt: false })
      table.dateTime('last_seen_at', { useTz: true }).notNullable()
      table.unique(['user_id', 'fingerprint'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
