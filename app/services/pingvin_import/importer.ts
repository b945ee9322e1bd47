/**
 * `node ace pingvin:import`: copies a Pingvin Share instance into Tern
 * (docs/design/pingvin_import.md). Order, so foreign keys hold: config,
 * users (with their social and LDAP links), reverse shares, then shares one
 * by one in three steps: rows inserted incomplete, bytes copied through the
 * storage facade to the target disk, then everything marked complete, so a
 * crash leaves nothing half-visible and a re-run finishes it. Every row
 * written is recorded in the ledger `pingvin_import_rows` in the same
 * transaction, so a second run imports nothing twice. Rows whose id or
 * unique key Tern already holds are reported as collisions, never
 * overwritten. Writes go through the query builder only (SQLite, MySQL and
 * PostgreSQL alike); users are inserted without the model, so the model
 * hook does not hash Pingvin's argon2 hash again.
 *
 * This file holds the run's order; the steps live beside it: import_run.ts
 * (the run's state, report lines and ledger), import_users.ts (users and
 * their social and LDAP links), import_shares.ts (reverse shares and shares)
 * and copy_files.ts (a share's bytes to the target disk).
 */
import app from '@adonisjs/core/services/app'
import lock from '@adonisjs/lock/services/main'
import db from '@adonisjs/lucid/services/db'
import { storage } from '#extensions/storage/main'
import ConfigService from '#services/config/config_service'
import { importPingvinConfig, type PingvinConfigRow } from '#services/pingvin_import/config_mapping'
import { ImportRun, LEDGER, type PingvinImportOptions } from '#services/pingvin_import/import_run'
import { importUsers } from '#services/pingvin_import/import_users'
import {
  importReverseShares,
  importShares,
  reportOrphanFolders,
} from '#services/pingvin_import/import_shares'
import { emptyReport, type ImportReport } from '#services/pingvin_import/report'
import { PingvinSource, PingvinSourceError } from '#services/pingvin_import/source'

export { uuidV5, type PingvinImportOptions } from '#services/pingvin_import/import_run'

/** One import run; use `run()` once. */
export class PingvinImporter {
  #run: ImportRun

  constructor(options: PingvinImportOptions) {
    this.#run = new ImportRun(options)
  }

  /** Runs the import; resolves to the report (`refused` set when nothing could be done). */
  async run(): Promise<ImportReport> {
    this.#run.source = await PingvinSource.open(this.#run.options.paths.db)
    try {
      const sourceId = this.#run.source.sourceId()
      this.#run.report = emptyReport(sourceId, this.#run.options)
      this.#run.report.schemaLevel = this.#run.source.schemaLevel()
      const [acquired] = await lock
        .createLock('pingvin:import', '6h')
        .runImmediately(() => this.#locked())
      if (!acquired) this.#run.report.refused = 'another Pingvin import is running'
      return this.#run.report
    } finally {
      await this.#run.source.close()
    }
  }

  async #locked() {
    const sourceId = this.#run.report.sourceId
    const ledgerRows = await db
      .from(LEDGER)
      .where('source_id', sourceId)
      .select('source_table', 'source_key', 'target_key', 'state')
    for (const row of ledgerRows) {
      this.#run.ledger.set(`${row.source_table}:${row.source_key}`, {
        state: row.state,
        targetKey: row.target_key,
      })
    }

    const foreign = await this.#foreignData()
    if (foreign && !this.#run.options.merge) {
      this.#run.report.refused = `Tern already holds data (${foreign}); use --merge to import beside it`
      return
    }

    const diskName = this.#run.options.disk ?? (await storage.resolveDefault())
    if (!storage.has(diskName)) {
      this.#run.report.refused = `no storage disk named "${diskName}" (known: ${storage.names().join(', ')})`
      return
    }
    this.#run.report.disk = diskName
    this.#run.log(`files go to the storage disk "${diskName}"`)

    await this.#importConfig()
    await importUsers(this.#run)
    await this.#finishSetup()
    await importReverseShares(this.#run)
    await importShares(this.#run, diskName)
    await reportOrphanFolders(this.#run)
  }

  /** What non-imported data Tern holds (users, shares, reverse shares not in this source's ledger), or null. */
  async #foreignData(): Promise<string | null> {
    const found: string[] = []
    for (const table of ['users', 'shares', 'reverse_shares']) {
      const [row] = await db
        .from(table)
        .whereNotIn(
          'id',
          db
            .from(LEDGER)
            .where('source_id', this.#run.report.sourceId)
            .where('target_table', table)
            .select('target_key')
        )
        .count('* as total')
      const total = Number(row.total)
      if (total > 0) found.push(`${total} ${table.replace('_', ' ')}`)
    }
    return found.length ? found.join(', ') : null
  }

  /** Pingvin's settings, through the configuration mapping (never overwrites a Tern value). */
  async #importConfig() {
    if (!this.#run.source.hasTable('Config')) return
    const rows = this.#run.source.rows('Config', 'category') as PingvinConfigRow[]
    const result = await importPingvinConfig(rows, { dryRun: this.#run.options.dryRun })
    this.#run.report.config = {
      imported: result.imported.length,
      unchanged: result.unchanged.length,
      skipped: result.skipped.map((skip) => ({
        key: skip.key,
        reason: `${skip.kind}: ${skip.reason}`,
      })),
      warnings: result.imported.flatMap((entry) =>
        entry.warning ? [{ key: entry.key, warning: entry.warning }] : []
      ),
    }
  }

  /** An imported admin means the instance is set up: the first-run setup page must not offer itself. */
  async #finishSetup() {
    if (this.#run.options.dryRun || this.#run.report.tables.User.imported === 0) return
    const admin = await db
      .from('users')
      .whereIn('id', [...this.#run.users])
      .where('is_admin', true)
      .first()
    if (!admin) return
    const config = await app.container.make(ConfigService)
    await config.set('internal.setupFinished', true)
  }
}

export { PingvinSourceError }
