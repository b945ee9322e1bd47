/**
 * The report of a Pingvin import: counts per source table and one line per
 * row that was not imported, with its reason (docs/design/pingvin_import.md §8).
 */

/** Counts of one source table. */
export interface TableCounts {
  read: number
  imported: number
  alreadyImported: number
  skipped: number
}

/** A row that was not imported (or imported with a remark, when `level` is `warning`/`info`). */
export interface ReportLine {
  level: 'skipped' | 'collision' | 'warning' | 'info'
  table: string
  key: string
  reason: string
}

/** Everything a run did (or, on a dry run, would do). */
export interface ImportReport {
  sourceId: string
  schemaLevel: string | null
  disk: string | null
  dryRun: boolean
  merge: boolean
  /** Set when the run was refused as a whole (nothing imported). */
  refused: string | null
  tables: Record<string, TableCounts>
  lines: ReportLine[]
  /** Result of the configuration step, when it ran. */
  config: {
    imported: number
    /** Unset in Pingvin (Tern's default applies) or already holding the same value. */
    unchanged: number
    skipped: { key: string; reason: string }[]
    warnings: { key: string; warning: string }[]
  } | null
}

export const REPORTED_TABLES = [
  'User',
  'OAuthUser',
  'ReverseShare',
  'Share',
  'ShareSecurity',
  'ShareRecipient',
  'File',
] as const

export function emptyReport(
  sourceId: string,
  options: { dryRun: boolean; merge: boolean }
): ImportReport {
  const tables: Record<string, TableCounts> = {}
  for (const table of REPORTED_TABLES)
    tables[table] = { read: 0, imported: 0, alreadyImported: 0, skipped: 0 }
  return {
    sourceId,
    schemaLevel: null,
    disk: null,
    dryRun: options.dryRun,
    merge: options.merge,
    refused: null,
    tables,
    lines: [],
    config: null,
  }
}

/** The report as text lines, for the console. */
export function formatReport(report: ImportReport): string[] {
  const out: string[] = []
  const verb = report.dryRun ? 'would import' : 'imported'
  out.push(
    `Pingvin source ${report.sourceId.slice(0, 12)} (schema ${report.schemaLevel ?? 'unknown'})`
  )
  if (report.disk) out.push(`files go to the storage disk "${report.disk}"`)
  if (report.refused) {
    out.push(`refused: ${report.refused}`)
    return out
  }
  for (const [table, counts] of Object.entries(report.tables)) {
    out.push(
      `${table.padEnd(15)} read ${counts.read}, ${verb} ${counts.imported}, already imported ${counts.alreadyImported}, skipped ${counts.skipped}`
    )
  }
  if (report.config) {
    const { config } = report
    out.push(
      `Config          ${verb} ${config.imported}, unchanged ${config.unchanged}, skipped ${config.skipped.length}`
    )
    for (const line of config.skipped) out.push(`  skipped config ${line.key}: ${line.reason}`)
    for (const line of config.warnings) out.push(`  warning config ${line.key}: ${line.warning}`)
  }
  for (const line of report.lines)
    out.push(`  ${line.level} ${line.table} ${line.key}: ${line.reason}`)
  return out
}
