/**
 * Share expiry dates from expiration inputs, as Pingvin takes them
 * (`"<n>-<unit>"` or `"never"`, parsed by #api/expiration, which the
 * browser's forms share). `share.maxExpiration` (a timespan, 0 = unlimited)
 * caps it, and "never" is refused while a maximum is set.
 */
import { DateTime } from 'luxon'
import { maximumTimespan, parseExpiration, type Timespan } from '#api/expiration'
import { configValue } from '#services/config/config_service'
import { ShareApiException, shareErrors } from '#services/shares/share_errors'

/** What a share that never expires reports as `expiration` (epoch 0). */
export const NEVER_EXPIRES_ISO = '1970-01-01T00:00:00.000Z'

/**
 * The latest expiry every database can store: MySQL's DATETIME ends with the
 * year 9999, and a later date (or one past what a JS Date can hold, which
 * Luxon reports as invalid) must be refused, never stored as "never".
 */
export const LATEST_EXPIRATION = DateTime.fromISO('9999-12-31T23:59:59.000Z', { zone: 'utc' })

/** Message of an expiration past `LATEST_EXPIRATION`, naming the field. */
export function tooLateMessage(field = 'Expiration'): string {
  return `${field} is too far in the future: the latest possible date is 9999-12-31`
}

/** `now` plus `span` (invalid when past what Luxon can represent). */
function plus(now: DateTime, span: Timespan): DateTime {
  return now.plus({ [span.unit]: span.value })
}

/** True when `input` (a valid pattern) ends after `LATEST_EXPIRATION` relative to `now`. */
export function isBeyondLatest(input: string, now: DateTime = DateTime.utc()): boolean {
  const span = parseExpiration(input)
  if (!span) return false
  const when = plus(now, span)
  return !when.isValid || when > LATEST_EXPIRATION
}

/**
 * The expiry date of an input relative to `now`; null for "never". Throws a
 * 400 for input outside `EXPIRATION_PATTERN` (#api/expiration) or past `LATEST_EXPIRATION`
 * (validators refuse both first; this guards every other caller).
 */
export function expirationFromInput(
  input: string,
  now: DateTime = DateTime.utc()
): DateTime | null {
  const span = parseExpiration(input)
  if (span === undefined) throw new ShareApiException(`Invalid expiration "${input}"`, 400)
  if (span === null) return null
  if (isBeyondLatest(input, now)) throw new ShareApiException(tooLateMessage(), 400)
  return plus(now, span)
}

/**
 * The latest allowed expiry for `maxExpiration` (a timespan like "30 days"),
 * or null when unlimited (0 or unparsable).
 */
export function maximumExpiration(
  maxExpiration: string,
  now: DateTime = DateTime.utc()
): DateTime | null {
  const timespan = maximumTimespan(maxExpiration)
  if (!timespan) return null
  const maximum = plus(now, timespan)
  // A maximum past what can be stored (or than Luxon can represent) is the latest storable date.
  return maximum.isValid && maximum < LATEST_EXPIRATION ? maximum : LATEST_EXPIRATION
}

/**
 * Resolves an expiration input against `share.maxExpiration`: the expiry
 * date, or null for "never". Throws 400 "Expiration date exceeds maximum
 * expiration date" when over the maximum (or "never" with a maximum set).
 */
export async function resolveExpiration(input: string): Promise<DateTime | null> {
  const now = DateTime.utc()
  const expiration = expirationFromInput(input, now)
  const maximum = maximumExpiration(await configValue('share.maxExpiration'), now)
  if (maximum && (expiration === null || expiration > maximum))
    throw shareErrors.expirationTooLong()
  return expiration
}

/** The API form of an expiry: ISO-8601 UTC, epoch 0 for "never". */
export function serializeExpiration(expiration: DateTime | null): string {
  return expiration ? expiration.toUTC().toISO()! : NEVER_EXPIRES_ISO
}

/** True when the share's expiry has passed (never-expiring shares never are). */
export function isExpired(expiration: DateTime | null, now: DateTime = DateTime.utc()): boolean {
  return expiration !== null && expiration <= now
}
