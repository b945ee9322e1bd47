/**
 * The state of one Pingvin import run (importer.ts) shared by its steps: the
 * options, the open source database, the report being written, the ledger
 * of rows already imported (`pingvin_import_rows`) and what this run
 * imported so far; plus the helpers every step uses to report a row and to
 * record one in the ledger.
 */
import { createHash } from 'node:crypto'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { sqlDateTime } from '#services/auth/tokens'
import { PingvinValueError } from '#services/pingvin_import/parsers'
import type { ImportReport, ReportLine } from '#services/pingvin_import/report'
import type { PingvinPaths, PingvinRow, PingvinSource } from '#services/pingvin_import/source'

/** Options of one run. */
export interface PingvinImportOptions {
  paths: PingvinPaths
  /** Read, check and report, but write nothing (no rows, no ledger, no storage). */
  dryRun: boolean
  /** Import into a Tern that already holds other data (collisions are still reported, never overwritten). */
  merge: boolean
  /** The storage disk for the files (default: the disk new uploads go to). */
  disk?: string
  /** Called with progress lines. */
  log?: (line: string) => void
}

export const LEDGER = 'pingvin_import_rows'
export const SHARE_ID = /^[A-Za-z0-9_-]{3,50}$/
const ROW_ID_MAX = 36
/** The uuid v5 namespace of the LDAP links (`social_accounts` ids derived from the DN). */
const LDAP_NAMESPACE = '6f0b7a4e-3c1d-5e8f-9a2b-4c6d8e0f1a3b'

/** A row that cannot be imported; the message goes to the report. */
export class RowSkipped extends Error {
  constructor(
    message: string,
    readonly level: ReportLine['level'] = 'skipped'
  ) {
    super(message)
  }
}

export interface LedgerEntry {
  state: 'pending' | 'done'
  targetKey: string
}

/** uuid v5 (RFC 4122, SHA-1) of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = LDAP_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex')
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16)
  bytes[6] = (bytes[6] & 0x0f) | 0x50
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function key(value: unknown, column: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new PingvinValueError(`${column}: missing`)
  if (value.length > ROW_ID_MAX)
    throw new PingvinValueError(`${column}: longer than ${ROW_ID_MAX} characters`)
  return value
}

export function describeKey(row: PingvinRow): string {
  return typeof row.id === 'string' && row.id
    ? row.id
    : `(row without id: ${JSON.stringify(row).slice(0, 80)})`
}

/** One run's state and its report and ledger helpers; built by PingvinImporter. */
export class ImportRun {
  options: PingvinImportOptions
  source!: PingvinSource
  report!: ImportReport
  ledger = new Map<string, LedgerEntry>()
  users = new Set<string>()
  /** Lower-cased usernames and e-mails imported by this run (a dry run writes none, yet must see them). */
  taken = new Map<string, string>()
  reverseShares = new Set<string>()

  constructor(options: PingvinImportOptions) {
    this.options = options
  }

  log(line: string) {
    this.options.log?.(line)
  }

  line(level: ReportLine['level'], table: string, rowKey: string, reason: string) {
    this.report.lines.push({ level, table, key: rowKey, reason })
  }

  skip(table: string, rowKey: string, error: unknown) {
    if (!(error instanceof RowSkipped) && !(error instanceof PingvinValueError)) throw error
    const level = error instanceof RowSkipped ? error.level : 'skipped'
    this.report.tables[table].skipped++
    this.line(level, table, rowKey, error.message)
  }

  async record(
    trx: TransactionClientContract,
    sourceTable: string,
    sourceKey: string,
    targetTable: string,
    targetKey: string,
    state: 'pending' | 'done'
  ) {
    await trx.table(LEDGER).insert({
      source_id: this.report.sourceId,
      source_table: sourceTable,
      source_key: sourceKey,
      target_table: targetTable,
      target_key: targetKey,
      state,
      imported_at: sqlDateTime(),
    })
  }
}
