/**
 * A snapshot of everything a request could have stored: every table but the
 * legitimately changing ones (attempt counters, job locks, migrations) and
 * every file under DATA_DIR (the database files aside).
 *
 * ```ts
 * const before = await snapshotState()
 * // ... requests ...
 * const after = await snapshotState()   // compare tables[name].hash and files
 * ```
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'

/** Tables whose rows change legitimately on refused requests (attempt counters, job locks, migrations). */
const VOLATILE_TABLES = new Set(['rate_limits', 'locks', 'adonis_schema', 'adonis_schema_versions'])

/**
 * Tables compared through a view of their rows (null drops a row). The
 * outbox works its rows in the background (status, attempts, locks), so only
 * which deliveries exist is compared; and POST /api/auth/resetPassword/:email
 * stores one request row for every address by design (the same neutral work
 * whatever the address), so those rows are left out.
 */
const ROW_VIEWS: Record<string, (row: Record<string, unknown>) => unknown> = {
  notification_deliveries: (row) =>
    row.event_type === 'auth:password_reset_request'
      ? null
      : {
          id: row.id,
          eventId: row.event_id,
          eventType: row.event_type,
          channel: row.channel,
          target: row.target,
        },
}

/** The rows of `name` as sorted JSON lines, through its view when it has one. */
async function rowLines(name: string): Promise<string[]> {
  const rows: Record<string, unknown>[] = await db.from(name).select('*')
  const view = ROW_VIEWS[name]
  const shown = view ? rows.map(view).filter((row) => row !== null) : rows
  return shown.map((row) => JSON.stringify(row)).sort()
}

async function tableNames(): Promise<string[]> {
  const client = db.connection().dialect.name
  if (client === 'mysql') {
    const [rows] = await db.rawQuery(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'
    )
    return rows.map((row: { name: string }) => row.name)
  }
  if (client === 'postgres') {
    const { rows } = await db.rawQuery(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'"
    )
    return rows.map((row: { name: string }) => row.name)
  }
  const rows = await db.rawQuery(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
  )
  return rows.map((row: { name: string }) => row.name)
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && !/\.sqlite3?(-\w+)?$|\.db(-\w+)?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length))
    .sort()
}

/** Every row of `tables` as sorted JSON lines (one string, to compare). */
export async function tableLines(tables: string[]): Promise<string> {
  const parts: string[] = []
  for (const name of tables) parts.push(name, ...(await rowLines(name)))
  return parts.join('\n')
}

/** Row count and content hash of every non-volatile table, and the files under DATA_DIR. */
export async function snapshotState() {
  const tables: Record<string, { rows: number; hash: string; lines: string[] }> = {}
  for (const name of (await tableNames()).sort()) {
    if (VOLATILE_TABLES.has(name)) continue
    const lines = await rowLines(name)
    tables[name] = {
      rows: lines.length,
      hash: createHash('sha256').update(lines.join('\n')).digest('hex'),
      lines,
    }
  }
  return { tables, files: await filesUnder(process.env.DATA_DIR!) }
}
