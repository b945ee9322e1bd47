/**
 * Formatting helpers shared by the share pages (upload, share view, my shares).
 */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']

/**
 * A human size, 1000-based like Pingvin Share: `formatBytes(1_500_000)` is
 * "1.5 MB", `formatBytes(0)` is "0 B". At most one decimal, written for
 * `locale` (default en-US).
 */
export function formatBytes(bytes: number, locale = 'en-US'): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B'
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1000)))
  const value = bytes / 1000 ** exponent
  let text: string
  try {
    text = new Intl.NumberFormat(locale, { maximumFractionDigits: exponent === 0 ? 0 : 1 }).format(value)
  } catch {
    text = String(Math.round(value * 10) / 10)
  }
  return `${text} ${UNITS[exponent]}`
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
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(date)
  }
}
