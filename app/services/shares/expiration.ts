/**
 * Share expiration input (spec/api.md §0): `"<n>-<unit>"` with unit one of
 * minute(s), hour(s), day(s), week(s), month(s), year(s), or `"never"`.
 * `share.maxExpiration` (a timespan, 0 = unlimited) caps it, and "never" is
 * refused while a maximum is set.
 */
import { DateTime, type DurationLikeObject } from 'luxon'
import { parseTimespan } from '#extensions/config/values'
import { configService } from '#services/config/config_service'
import { shareErrors } from '#services/shares/share_errors'

/** The input meaning "never expires". */
export const NEVER = 'never'

/** What a share that never expires reports as `expiration` (epoch 0). */
export const NEVER_EXPIRES_ISO = '1970-01-01T00:00:00.000Z'

/** Valid expiration inputs: `never` or `<n>-<unit>` with n >= 1. */
export const EXPIRATION_PATTERN = /^(?:never|[1-9]\d{0,8}-(?:minute|hour|day|week|month|year)s?)$/

/**
 * The expiry date of an input relative to `now`; null for "never". Throws a
 * 400 validation-style error for input outside `EXPIRATION_PATTERN`.
 */
export function expirationFromInput(input: string, now: DateTime = DateTime.utc()): DateTime | null {
  if (!EXPIRATION_PATTERN.test(input)) throw new Error(`Invalid expiration "${input}"`)
  if (input === NEVER) return null
  const [amount, unit] = input.split('-')
  const key = (unit.endsWith('s') ? unit : `${unit}s`) as keyof DurationLikeObject
  return now.plus({ [key]: Number(amount) })
}

/**
 * The latest allowed expiry for `maxExpiration` (a timespan like "30 days"),
 * or null when unlimited (0 or unparsable).
 */
export function maximumExpiration(maxExpiration: string, now: DateTime = DateTime.utc()): DateTime | null {
  const timespan = parseTimespan(maxExpiration)
  if (!timespan || timespan.value === 0) return null
  return now.plus({ [timespan.unit]: timespan.value })
}

/**
 * Resolves an expiration input against `share.maxExpiration`: the expiry
 * date, or null for "never". Throws 400 "Expiration date exceeds maximum
 * expiration date" when over the maximum (or "never" with a maximum set).
 */
export async function resolveExpiration(input: string): Promise<DateTime | null> {
  const now = DateTime.utc()
  const expiration = expirationFromInput(input, now)
  const maximum = maximumExpiration(await configService.get('share.maxExpiration'), now)
  if (maximum && (expiration === null || expiration > maximum)) throw shareErrors.expirationTooLong()
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
