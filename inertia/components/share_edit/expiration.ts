/**
 * Expiration input of the share edit form: a number and a unit (minute to
 * year) or "never", as the API takes it (`"<n>-<unit>"`),
 * capped by the public `share.maxExpiration` timespan ("30 days"; 0 means
 * unlimited) like on creation.
 */

/** Units offered, as the API spells them. */
export const EXPIRATION_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const

/** One expiration unit. */
export type ExpirationUnit = (typeof EXPIRATION_UNITS)[number]

/** A parsed timespan: an amount of a unit. */
export interface Timespan {
  amount: number
  unit: ExpirationUnit
}

/** Parses a configured timespan ("30 days", "1 hour"); null when invalid or 0 (unlimited). */
export function parseMaxExpiration(text: string | undefined | null): Timespan | null {
  const match = /^(\d{1,9}) (minute|hour|day|week|month|year)s?$/.exec(String(text ?? '').trim())
  if (!match || Number(match[1]) === 0) return null
  return { amount: Number(match[1]), unit: match[2] as ExpirationUnit }
}

/** `from` moved forward by `span` (calendar months and years, like the server). */
export function addTimespan(from: Date, span: Timespan): Date {
  const date = new Date(from.getTime())
  switch (span.unit) {
    case 'minute':
      date.setUTCMinutes(date.getUTCMinutes() + span.amount)
      break
    case 'hour':
      date.setUTCHours(date.getUTCHours() + span.amount)
      break
    case 'day':
      date.setUTCDate(date.getUTCDate() + span.amount)
      break
    case 'week':
      date.setUTCDate(date.getUTCDate() + 7 * span.amount)
      break
    case 'month':
      date.setUTCMonth(date.getUTCMonth() + span.amount)
      break
    case 'year':
      date.setUTCFullYear(date.getUTCFullYear() + span.amount)
      break
  }
  return date
}

/** True when `span` from `now` goes past `max` from `now`. */
export function exceedsMaximum(span: Timespan, max: Timespan | null, now = new Date()): boolean {
  if (!max) return false
  return addTimespan(now, span).getTime() > addTimespan(now, max).getTime()
}

/** The API input for a timespan: `"2-days"`, `"1-hour"`. */
export function expirationInput(span: Timespan): string {
  return `${span.amount}-${span.unit}${span.amount === 1 ? '' : 's'}`
}
