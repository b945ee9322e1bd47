/**
 * Pure conversions for the configuration editors (no browser or `~/`
 * imports: unit-tested in tests/unit/admin/config_values.spec.ts).
 *
 * - file sizes are stored in bytes and edited as a number with a unit
 *   (B, KB, MB, GB; 1000-based like the rest of Tern);
 * - timespans (`"3 months"`) are read and written by `#api/expiration`, the
 *   module the server and the other forms use too;
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
