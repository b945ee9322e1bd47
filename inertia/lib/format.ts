/**
 * Formatting helpers shared by the share pages (upload, share view, my shares):
 * sizes, speeds, percentages, durations and dates, all through `Intl` so each
 * language gets its own units and spacing (no rule copied from English).
 */

/** Intl's sanctioned byte units, 1000 apart (CLDR names them per language: "MB", French "Mo"). */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const

/** Exponent (index in `UNITS`) of the largest unit that keeps `bytes` at 1 or more. */
function byteExponent(bytes: number): number {
  if (!Number.isFinite(bytes) || bytes < 1000) return 0
  return Math.min(UNITS.length - 1, Math.floor(Math.log10(bytes) / 3))
}

/**
 * `value` in `unit` (an Intl unit, possibly `<unit>-per-second`) written by
 * `Intl.NumberFormat` for `locale`: the language's own unit names and
 * spacing ("1.5 MB", "1,5 Mo", "1,5 MB"). Plain bytes use the long name
 * ("512 bytes", "512 octets"): the short English one is "byte" even when plural.
 */
export function formatUnit(
  value: number,
  unit: string,
  locale: string,
  fractionDigits: number
): string {
  const options: Intl.NumberFormatOptions = {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: fractionDigits,
  }
  try {
    return new Intl.NumberFormat(locale, options).format(value)
  } catch {
    return new Intl.NumberFormat('en-US', options).format(value)
  }
}

/**
 * A human size, 1000-based like Pingvin Share, at most one decimal, in the
 * units and number style of `locale` through `Intl.NumberFormat`:
 * `formatBytes(1_500_000)` is "1.5 MB", in fr-FR "1,5 Mo";
 * `formatBytes(0)` is "0 bytes".
 */
export function formatBytes(bytes: number, locale = 'en-US'): string {
  const safe = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
  const exponent = byteExponent(safe)
  return formatUnit(safe / 1000 ** exponent, UNITS[exponent], locale, exponent === 0 ? 0 : 1)
}

/** A speed in bytes per second, written like `formatBytes` ("4.2 MB/s", French "4,2 Mo/s"). */
export function formatSpeed(bytesPerSecond: number, locale = 'en-US'): string {
  const safe = Number.isFinite(bytesPerSecond) && bytesPerSecond > 0 ? bytesPerSecond : 0
  const exponent = byteExponent(safe)
  return formatUnit(
    safe / 1000 ** exponent,
    `${UNITS[exponent]}-per-second`,
    locale,
    exponent === 0 ? 0 : 1
  )
}

/** A percentage (0-100, rounded down) the way `locale` writes it: "32%", French and German "32 %". */
export function formatPercent(percent: number, locale = 'en-US'): string {
  const value = Math.max(0, Math.min(100, Math.floor(Number.isFinite(percent) ? percent : 0))) / 100
  try {
    return new Intl.NumberFormat(locale, { style: 'percent' }).format(value)
  } catch {
    return new Intl.NumberFormat('en-US', { style: 'percent' }).format(value)
  }
}

/**
 * A rough duration for "time left" ("2 minutes", "1.5 hours", French "2 minutes",
 * German "2 Minuten"), rounded the way people say it: seconds to the
 * nearest 10 under a minute, whole minutes under an hour, hours with one
 * decimal under a day, then days. Null under 10 seconds (the caller says "a few seconds").
 */
export function formatDuration(seconds: number, locale = 'en-US'): string | null {
  if (!Number.isFinite(seconds) || seconds < 10) return null
  if (seconds < 60) return formatLongUnit(Math.round(seconds / 10) * 10, 'second', locale, 0)
  if (seconds < 3600)
    return formatLongUnit(Math.max(1, Math.round(seconds / 60)), 'minute', locale, 0)
  if (seconds < 86_400) return formatLongUnit(seconds / 3600, 'hour', locale, 1)
  return formatLongUnit(seconds / 86_400, 'day', locale, 1)
}

function formatLongUnit(
  value: number,
  unit: string,
  locale: string,
  fractionDigits: number
): string {
  const options: Intl.NumberFormatOptions = {
    style: 'unit',
    unit,
    unitDisplay: 'long',
    maximumFractionDigits: fractionDigits,
  }
  try {
    return new Intl.NumberFormat(locale, options).format(value)
  } catch {
    return new Intl.NumberFormat('en-US', options).format(value)
  }
}

/**
 * True when an expiration date means "never expires" (the API writes the
 * epoch, `1970-01-01T00:00:00.000Z`, for shares without expiration). Empty
 * or invalid values count as never too.
 */
export function isNeverExpiring(iso: string | null | undefined): boolean {
  if (!iso) return true
  const time = new Date(iso).getTime()
  return Number.isNaN(time) || time === 0
}

/**
 * A date and time for `locale` ("Jan 5, 2026, 3:04 PM" in en-US). Invalid
 * input is returned unchanged.
 */
export function formatDate(iso: string, locale: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
  } catch {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      date
    )
  }
}
