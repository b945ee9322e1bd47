import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * `upload_sessions.state`: where a file's upload stands, recorded so that a
 * retry or a restart can finish it (receiving, assembling,
 * complete). `receiving` until every chunk is recorded; `assembling` while
 * one request joins the chunks (multipart completion or staged chunks), with
 * `assembly_heartbeat_at` refreshed by that request so a stalled assembly
 * (its process died) can be taken over. "complete" is the file row's
 * `completed`, set in the same transaction that drops the session.
 */
export default class extends BaseSchema {
  protected tableName = 'upload_sessions'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.string('state', 16).notNullable().defaultTo('receiving')
      table.dateTime('assembly_heartbeat_at', { useTz: true }).nullable()
      table.index(['state'])
    })
    // Before this, a file was marked completed before its assembly and its
    // session dropped after it: a completed file that still has a session was
    // cut short. It becomes unfinished again, its session `assembling` with no
    // heartbeat, so the stalled-upload job assembles it (or sees it is whole).
    this.defer(async (db) => {
      const rows = await db
        .from('upload_sessions')
        .join('files', 'files.id', 'upload_sessions.file_id')
        .where('files.completed', true)
        .select('upload_sessions.file_id as fileId')
      const fileIds = rows.map((row: { fileId: string }) => row.fileId)
      if (fileIds.length === 0) return
      await db.from('files').whereIn('id', fileIds).update({ completed: false })
      await db.from('upload_sessions').whereIn('file_id', fileIds).update({ state: 'assembling' })
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropIndex(['state'])
      table.dropColumn('assembly_heartbeat_at')
      table.dropColumn('state')
    })
  }
}
