/**
 * Expiration choices of the create-share modal: a number and a unit
 * (minute ... year) or never, as the API takes them (`"7-day"`, `"never"`),
 * and the `share.defaultExpiration` / `share.maxExpiration` timespans
 * (`"7 days"`, `"0 days"` = unlimited).
 */

/** The units offered. */
export const EXPIRATION_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const

/** One unit. */
export type ExpirationUnit = (typeof EXPIRATION_UNITS)[number]

/** A number of units. */
export interface Timespan {
  value: number
  unit: ExpirationUnit
}

/** Parses `"7 days"` / `"1 month"`; null when not a timespan. */
export function parseTimespan(text: string | null | undefined): Timespan | null {
  const match = /^\s*(\d{1,9})\s*(minute|hour|day|week|month|year)s?\s*$/.exec(text ?? '')
  if (!match) return null
  return { value: Number(match[1]), unit: match[2] as ExpirationUnit }
}

/** `now` plus a timespan (calendar months and years). */
export function addTimespan(now: Date, span: Timespan): Date {
  const date = new Date(now.getTime())
  switch (span.unit) {
    case 'minute':
      date.setTime(date.getTime() + span.value * 60_000)
      break
    case 'hour':
      date.setTime(date.getTime() + span.value * 3_600_000)
      break
    case 'day':
      date.setTime(date.getTime() + span.value * 86_400_000)
      break
    case 'week':
      date.setTime(date.getTime() + span.value * 7 * 86_400_000)
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

/** The latest allowed expiry for `share.maxExpiration`, or null when unlimited (0 or unreadable). */
export function maximumExpiry(maxExpiration: string, now = new Date()): Date | null {
  const span = parseTimespan(maxExpiration)
  if (!span || span.value === 0) return null
  return addTimespan(now, span)
}

/** The API value: `"never"` or `"<n>-<unit>"`. */
export function expirationInput(never: boolean, span: Timespan): string {
  return never ? 'never' : `${span.value}-${span.unit}`
}

/** True when `span` from now ends after the maximum (never is over any maximum). */
export function exceedsMaximum(
  never: boolean,
  span: Timespan,
  maximum: Date | null,
  now = new Date()
): boolean {
  if (!maximum) return false
  if (never) return true
  return addTimespan(now, span).getTime() > maximum.getTime()
}
