/**
 * Expirations and timespans as the API and the settings spell them, read the
 * same way by the server (validators, share expiry, config values) and by
 * the browser (the upload and share edit forms). Pure functions, no imports.
 *
 * - An expiration input (`expiration` of `POST /api/shares`, `PATCH
 *   /api/shares/:id`, `shareExpiration` of reverse shares) is Pingvin's
 *   `"<n>-<unit>"` (`"1-day"`, `"2-weeks"`; n from 1, unit singular or plural)
 *   or `"never"`.
 * - A timespan setting (`share.maxExpiration`, `share.defaultExpiration`,
 *   `general.sessionDuration`) is `"<n> <unit>"` (`"7 days"`, `"1 month"`;
 *   n from 0, unit singular or plural); `0` of a maximum means unlimited.
 */

/** The units, singular as in `"1-day"`. */
export const TIMESPAN_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const

/** One unit. */
export type TimespanUnit = (typeof TIMESPAN_UNITS)[number]

/** An amount of a unit: `"7 days"` and `"7-days"` are `{ value: 7, unit: 'day' }`. */
export interface Timespan {
  value: number
  unit: TimespanUnit
}

/** The expiration input meaning "never expires". */
export const NEVER = 'never'

/** Valid expiration inputs: `never` or `<n>-<unit>` with n >= 1. */
export const EXPIRATION_PATTERN = /^(?:never|[1-9]\d{0,8}-(?:minute|hour|day|week|month|year)s?)$/

/** A timespan setting: `<n> <unit>`, n >= 0 (after trimming). */
const TIMESPAN_PATTERN = /^(\d{1,9}) (minute|hour|day|week|month|year)s?$/

/** Parses a timespan setting (`"7 days"`, `" 1 month "`); null when the text is not one. */
export function parseTimespan(text: string | null | undefined): Timespan | null {
  const match = TIMESPAN_PATTERN.exec(String(text ?? '').trim())
  if (!match) return null
  return { value: Number(match[1]), unit: match[2] as TimespanUnit }
}

/** A timespan setting as the server stores it: `"7 days"`, `"1 months"` (unit always plural). */
export function formatTimespan(span: Timespan): string {
  return `${span.value} ${span.unit}s`
}

/**
 * The maximum a `share.maxExpiration` setting allows, or null when
 * unlimited (`0`, or not a timespan).
 */
export function maximumTimespan(text: string | null | undefined): Timespan | null {
  const span = parseTimespan(text)
  return span && span.value > 0 ? span : null
}

/**
 * Parses an expiration input: `null` for `"never"`, the timespan of
 * `"<n>-<unit>"`, or `undefined` when the input is neither (see
 * `EXPIRATION_PATTERN`).
 */
export function parseExpiration(input: string): Timespan | null | undefined {
  if (!EXPIRATION_PATTERN.test(input)) return undefined
  if (input === NEVER) return null
  const [value, unit] = input.split('-')
  return {
    value: Number(value),
    unit: (unit.endsWith('s') ? unit.slice(0, -1) : unit) as TimespanUnit,
  }
}

/** The expiration input of `span` (`"1-day"`, `"2-days"`), or `"never"` for null. */
export function expirationInput(span: Timespan | null): string {
  if (span === null) return NEVER
  return `${span.value}-${span.unit}${span.value === 1 ? '' : 's'}`
}

/**
 * `from` moved forward by `span` in UTC (calendar months and years: the
 * browser's preview; the server computes the stored date with Luxon).
 */
export function addTimespan(from: Date, span: Timespan): Date {
  const date = new Date(from.getTime())
  switch (span.unit) {
    case 'minute':
      date.setUTCMinutes(date.getUTCMinutes() + span.value)
      break
    case 'hour':
      date.setUTCHours(date.getUTCHours() + span.value)
      break
    case 'day':
      date.setUTCDate(date.getUTCDate() + span.value)
      break
    case 'week':
      date.setUTCDate(date.getUTCDate() + 7 * span.value)
      break
    case 'month':
      date.setUTCMonth(date.getUTCMonth() + span.value)
      break
    case 'year':
      date.setUTCFullYear(date.getUTCFullYear() + span.value)
      break
  }
  return date
}

/** The latest expiry a `share.maxExpiration` setting allows from `now`, or null when unlimited. */
export function maximumExpiry(maxExpiration: string, now = new Date()): Date | null {
  const span = maximumTimespan(maxExpiration)
  return span ? addTimespan(now, span) : null
}

/**
 * True when the expiration `span` (null: never) from `now` ends after
 * `maximum` (a date from `maximumExpiry`; null: unlimited). Never is over
 * any maximum.
 */
export function exceedsMaximum(span: Timespan | null, maximum: Date | null, now = new Date()) {
  if (!maximum) return false
  if (span === null) return true
  return addTimespan(now, span).getTime() > maximum.getTime()
}
