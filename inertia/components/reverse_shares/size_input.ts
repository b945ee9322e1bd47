/**
 * The max-share-size input of the create-reverse-share modal: a number and a
 * unit, 1000-based like `formatBytes` (Pingvin Share's sizes).
 */

/** Units offered, smallest first, with their size in bytes. */
export const SIZE_UNITS = [
  { unit: 'KB', bytes: 1e3 },
  { unit: 'MB', bytes: 1e6 },
  { unit: 'GB', bytes: 1e9 },
  { unit: 'TB', bytes: 1e12 },
] as const

/** One unit. */
export type SizeUnit = (typeof SIZE_UNITS)[number]['unit']

/** A size as the form holds it. */
export interface SizeValue {
  value: number
  unit: SizeUnit
}

/** Bytes of a form value, rounded to a whole byte (NaN for a missing or non-positive value). */
export function sizeInBytes(size: Partial<SizeValue>): number {
  const unit = SIZE_UNITS.find((candidate) => candidate.unit === size.unit)
  const value = Number(size.value)
  if (!unit || !Number.isFinite(value) || value <= 0) return Number.NaN
  return Math.round(value * unit.bytes)
}

/**
 * A byte count in the largest unit that keeps it at 1 or more
 * (1_500_000_000 is 1.5 GB); at least KB.
 */
export function splitSize(bytes: number): SizeValue {
  let chosen: (typeof SIZE_UNITS)[number] = SIZE_UNITS[0]
  for (const unit of SIZE_UNITS) if (bytes >= unit.bytes) chosen = unit
  return { value: Math.round((bytes / chosen.bytes) * 1000) / 1000, unit: chosen.unit }
}
