/**
 * Whether the database schema carries every migration this build ships.
 * When migrations are an operator step of their own
 * (MIGRATE_ON_START=false, the chart's Job), an instance may start before
 * the step finished; readiness stays 503 until then, so no request meets a
 * table that does not exist yet. Read-only: it never creates Lucid's table
 * (the migration command may be creating it at the same moment).
 */
import { readdirSync } from 'node:fs'
import { basename, extname } from 'node:path'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'

/** Lucid's bookkeeping table. */
const SCHEMA_TABLE = 'adonis_schema'

/** Once current, the schema stays current for this process (a build does not change at run time). */
let current = false

/** The names (file names without extension) of the migrations this build ships. */
function shippedMigrations(): string[] {
  return readdirSync(app.migrationsPath())
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => basename(file, extname(file)))
}

/** The names of the migrations that are shipped but not applied (empty when current). */
export async function pendingMigrations(): Promise<string[]> {
  if (current) return []
  const shipped = shippedMigrations()
  const applied = new Set<string>()
  if (await db.connection().schema.hasTable(SCHEMA_TABLE)) {
    const rows = await db.from(SCHEMA_TABLE).select('name')
    for (const row of rows) applied.add(basename(String(row.name)))
  }
  const pending = shipped.filter((name) => !applied.has(name))
  current = pending.length === 0
  return pending
}
