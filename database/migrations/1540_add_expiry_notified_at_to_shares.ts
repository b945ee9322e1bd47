import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `expiry_notified_at` on shares and reverse shares: when the "expiring
 * soon" notification (`share.expiring`, `reverse_share.expiring`) was
 * emitted for the current expiry, so the job (app/services/jobs/
 * expiry_notice_job.ts) notifies each once. Null = not notified; editing a
 * share's expiry clears it.
 */
export default class extends BaseSchema {
  async up() {
    for (const tableName of ['shares', 'reverse_shares']) {
      this.schema.alterTable(tableName, (table) => {
        table.dateTime('expiry_notified_at', { useTz: true }).nullable()
      })
    }
  }

  async down() {
    for (const tableName of ['shares', 'reverse_shares']) {
      this.schema.alterTable(tableName, (table) => {
        table.dropColumn('expiry_notified_at')
      })
    }
  }
}
