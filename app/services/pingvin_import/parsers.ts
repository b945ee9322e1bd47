/**
 * Value parsers for rows read from a Pingvin Share SQLite database
 * (docs/design/pingvin_import.md §1.1). Prisma's SQLite connector stores
 * DateTime as integer milliseconds, raw-SQL migrations left TEXT
 * `YYYY-MM-DD HH:MM:SS` (UTC) or seconds; booleans are 0/1 (or the literals
 * `true`/`false`); sizes are TEXT byte counts. Each parser throws a
 * `PingvinValueError` naming what it could not read, so the importer reports
 * the row instead of importing a wrong value.
 */
import { DateTime } from 'luxon'

/** A value of a Pingvin row that cannot be read; the message is shown in the import report. */
export class PingvinValueError extends Error {}

const MILLIS_FROM = 1e11
const SQL_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})?$/

/** A Pingvin timestamp (ms, seconds, `YYYY-MM-DD HH:MM:SS[.fff]` UTC or ISO-8601) as a UTC DateTime. */
export function parseTimestamp(value: unknown, column = 'timestamp'): DateTime {
  let parsed: DateTime | null = null
  if (typeof value === 'number' || typeof value === 'bigint') {
    parsed = fromEpochNumber(Number(value))
  } else if (typeof value === 'string') {
    const text = value.trim()
    if (/^\d+$/.test(text)) {
      parsed = fromEpochNumber(Number(text))
    } else if (SQL_DATETIME.test(text)) {
      const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text)
      parsed = DateTime.fromISO(text.replace(' ', 'T'), {
        zone: hasZone ? undefined : 'utc',
        setZone: false,
      })
    }
  }
  if (!parsed || !parsed.isValid) {
    throw new PingvinValueError(
      `${column}: unreadable timestamp ${JSON.stringify(describe(value))}`
    )
  }
  return parsed.toUTC()
}

function fromEpochNumber(value: number): DateTime | null {
  if (!Number.isSafeInteger(value) || value < 0) return null
  return value >= MILLIS_FROM
    ? DateTime.fromMillis(value, { zone: 'utc' })
    : DateTime.fromSeconds(value, { zone: 'utc' })
}

/** An expiry: epoch 0 is Pingvin's "never", returned as null (Tern's never). */
export function parseExpiration(value: unknown, column = 'expiration'): DateTime | null {
  const parsed = parseTimestamp(value, column)
  return parsed.toMillis() === 0 ? null : parsed
}

/** A Pingvin boolean: 0/1, '0'/'1', 'true'/'false'. `fallback` when the column is missing (undefined). */
export function parseBoolean(value: unknown, column = 'boolean', fallback?: boolean): boolean {
  if (value === undefined && fallback !== undefined) return fallback
  if (value === 1 || value === 1n || value === true || value === '1' || value === 'true')
    return true
  if (value === 0 || value === 0n || value === false || value === '0' || value === 'false')
    return false
  throw new PingvinValueError(`${column}: unreadable boolean ${JSON.stringify(describe(value))}`)
}

/** A byte count stored as TEXT (or an integer): a non-negative whole number up to 2^53. */
export function parseSize(value: unknown, column = 'size'): number {
  const text =
    typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : ''
  if (!/^\d+$/.test(text))
    throw new PingvinValueError(`${column}: unreadable size ${JSON.stringify(describe(value))}`)
  const size = BigInt(text)
  if (size > BigInt(Number.MAX_SAFE_INTEGER))
    throw new PingvinValueError(`${column}: size ${text} is above 2^53`)
  return Number(size)
}

/** A non-negative whole number (views, remaining uses, max views). */
export function parseCount(value: unknown, column: string): number {
  const count =
    typeof value === 'bigint'
      ? Number(value)
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : value
  if (
    typeof count !== 'number' ||
    !Number.isSafeInteger(count) ||
    count < 0 ||
    count > 2_147_483_647
  ) {
    throw new PingvinValueError(`${column}: unreadable count ${JSON.stringify(describe(value))}`)
  }
  return count
}

/** A required text value of at most `max` characters. */
export function parseText(value: unknown, column: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new PingvinValueError(`${column}: missing or not text`)
  }
  if (value.length > max) throw new PingvinValueError(`${column}: longer than ${max} characters`)
  return value
}

/** An optional text value (null when missing or NULL) of at most `max` characters. */
export function parseOptionalText(value: unknown, column: string, max?: number): string | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'string') throw new PingvinValueError(`${column}: not text`)
  if (max !== undefined && value.length > max)
    throw new PingvinValueError(`${column}: longer than ${max} characters`)
  return value
}

function describe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return `<${value.length} bytes>`
  return value === undefined ? 'missing' : value
}
