/**
 * Pure conversions for the configuration editors (no browser or `~/`
 * imports: unit-tested in tests/unit/admin/config_values.spec.ts).
 *
 * - file sizes are stored in bytes and edited as a number with a unit
 *   (B, KB, MB, GB; 1000-based like the rest of Tern);
 * - timespans are stored as `"<n> <unit>"` (minutes..years) and edited as
 *   a number with a unit;
 * - the API wants typed JSON values: a number for number and filesize, a
 *   boolean for boolean, a string otherwise.
 */
import type { ConfigType } from '#api/config'

/** Units of the file size editor, with their factor. */
export const FILESIZE_UNITS = [
  { unit: 'B', factor: 1 },
  { unit: 'KB', factor: 1000 },
  { unit: 'MB', factor: 1000 ** 2 },
  { unit: 'GB', factor: 1000 ** 3 },
] as const

/** A file size unit. */
export type FilesizeUnit = (typeof FILESIZE_UNITS)[number]['unit']

/** A file size as edited: `{ value: 1, unit: 'GB' }`. */
export interface FilesizeParts {
  value: number
  unit: FilesizeUnit
}

/** The largest unit that shows `bytes` as a whole number (`1000000000` is 1 GB). */
export function splitFilesize(bytes: number): FilesizeParts {
  if (!Number.isFinite(bytes) || bytes <= 0) return { value: Math.max(0, bytes || 0), unit: 'B' }
  for (const { unit, factor } of [...FILESIZE_UNITS].reverse()) {
    if (bytes % factor === 0) return { value: bytes / factor, unit }
  }
  return { value: bytes, unit: 'B' }
}

/** Bytes of a file size, rounded to a whole byte. */
export function joinFilesize(parts: FilesizeParts): number {
  const factor = FILESIZE_UNITS.find((entry) => entry.unit === parts.unit)?.factor ?? 1
  return Math.round(parts.value * factor)
}

/** Units of the timespan editor, in the plural form the server stores. */
export const TIMESPAN_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const

/** A timespan unit. */
export type TimespanUnit = (typeof TIMESPAN_UNITS)[number]

/** A timespan as edited: `{ value: 3, unit: 'months' }`. */
export interface TimespanParts {
  value: number
  unit: TimespanUnit
}

/** Parses `"3 months"` (singular units too); null when it is not a timespan. */
export function parseTimespan(text: string): TimespanParts | null {
  const match = /^(\d{1,9}) (minute|hour|day|week|month|year)s?$/.exec(String(text).trim())
  return match ? { value: Number(match[1]), unit: `${match[2]}s` as TimespanUnit } : null
}

/** Formats a timespan as the server stores it (`"7 days"`). */
export function formatTimespan(parts: TimespanParts): string {
  return `${parts.value} ${parts.unit}`
}

/** Types of configuration variables (the server's, `#api/config`). */
export type { ConfigType }

/** A form value (what the editor holds) for a stored string of a type. */
export function toFormValue(type: ConfigType, stored: string): string | number | boolean {
  switch (type) {
    case 'boolean':
      return stored === 'true'
    case 'number':
    case 'filesize':
      return stored === '' ? 0 : Number(stored)
    default:
      return stored
  }
}

/** The JSON value to send for an editor's value (typed as the API expects). */
export function toApiValue(type: ConfigType, value: unknown): string | number | boolean {
  switch (type) {
    case 'boolean':
      return value === true || value === 'true'
    case 'number':
    case 'filesize':
      return typeof value === 'number' ? value : Number(value)
    default:
      return value === undefined || value === null ? '' : String(value)
  }
}

/** Whether an editor's value differs from the stored string. */
export function isChanged(type: ConfigType, stored: string, value: unknown): boolean {
  return toApiValue(type, value) !== toApiValue(type, toFormValue(type, stored))
}
