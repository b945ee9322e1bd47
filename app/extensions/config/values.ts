/**
 * Pure helpers on configuration values (timespans are #api/expiration's): conversion between the
 * stored string and the typed value, and validation of a candidate value
 * against a variable's type and rules. Used by the registry (defaults) and by
 * the config service (updates).
 */
import type {
  ConfigValue,
  ConfigVariableType,
  ConfigVariableValidation,
} from '#extensions/config/types'
import { formatTimespan, parseTimespan, TIMESPAN_UNITS } from '#api/expiration'

/** The part of a variable these helpers need. */
export interface ValueRules {
  key: string
  type: ConfigVariableType
  validation?: ConfigVariableValidation
}

/**
 * Converts a stored string into the typed value: a number for number and
 * filesize, a boolean for boolean (`"true"`), the string itself otherwise.
 */
export function parseStoredValue(variable: Pick<ValueRules, 'type'>, stored: string): ConfigValue {
  switch (variable.type) {
    case 'number':
    case 'filesize':
      return Number(stored)
    case 'boolean':
      return stored === 'true'
    default:
      return stored
  }
}

/** Converts a typed value into the string that is stored. */
export function toStoredValue(value: ConfigValue): string {
  return typeof value === 'string' ? value : String(value)
}

/** Outcome of `checkValue`. */
export type ValueCheck =
  | { ok: true; value: ConfigValue; stored: string }
  | { ok: false; reason: 'type' | 'invalid'; message: string }

function typeMatches(type: ConfigVariableType, input: unknown): boolean {
  switch (type) {
    case 'number':
    case 'filesize':
      return typeof input === 'number' && Number.isFinite(input)
    case 'boolean':
      return typeof input === 'boolean'
    default:
      return typeof input === 'string'
  }
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`
  if (min !== undefined) return `at least ${min}`
  return `at most ${max}`
}

/**
 * Checks a candidate value (as it comes from JSON) for a variable: the JSON
 * type first (`reason: 'type'`, message "Config variable must be of type
 * <type>"), then the type's format and the variable's rules
 * (`reason: 'invalid'`, a human-readable message). Returns the typed value and
 * the string to store when it is fine. Empty strings are not special here:
 * the service treats `""` as "reset to default" before calling this.
 */
export function checkValue(variable: ValueRules, input: unknown): ValueCheck {
  const { key, type } = variable
  const rules = variable.validation ?? {}
  if (!typeMatches(type, input)) {
    return { ok: false, reason: 'type', message: `Config variable must be of type ${type}` }
  }
  const value = input as ConfigValue
  const fail = (message: string): ValueCheck => ({ ok: false, reason: 'invalid', message })

  if (type === 'number' || type === 'filesize') {
    const n = value as number
    if (type === 'filesize' && (!Number.isSafeInteger(n) || n < 0)) {
      return fail(`Config variable ${key} must be a whole number of bytes`)
    }
    if (type === 'number' && rules.integer !== false && !Number.isSafeInteger(n)) {
      return fail(`Config variable ${key} must be an integer`)
    }
    if ((rules.min !== undefined && n < rules.min) || (rules.max !== undefined && n > rules.max)) {
      return fail(
        rules.message ?? `Config variable ${key} must be ${rangeText(rules.min, rules.max)}`
      )
    }
  }

  if (type === 'timespan' && !parseTimespan(value as string)) {
    return fail(
      `Config variable ${key} must be a timespan like "7 days" (units: ${TIMESPAN_UNITS.map((unit) => `${unit}s`).join(', ')})`
    )
  }

  if (typeof value === 'string') {
    if (rules.allowed && !rules.allowed.includes(value)) {
      return fail(
        rules.message ?? `Config variable ${key} must be one of: ${rules.allowed.join(', ')}`
      )
    }
    if (rules.pattern) {
      rules.pattern.lastIndex = 0
      if (!rules.pattern.test(value)) {
        return fail(rules.message ?? `Config variable ${key} has an invalid format`)
      }
    }
  }

  if (rules.validate) {
    const message = rules.validate(value)
    if (message) return fail(message)
  }

  const stored =
    type === 'timespan' ? formatTimespan(parseTimespan(value as string)!) : toStoredValue(value)
  return { ok: true, value, stored }
}

/**
 * Checks a value given as its stored string (e.g. a definition's default):
 * the string must convert to the type (`"12"` for a number, `"true"`/`"false"`
 * for a boolean) and then pass `checkValue`. An empty string or text is
 * always accepted (it means "not set", e.g. an empty SMTP host). Returns an
 * error message, or null.
 */
export function checkStoredValue(variable: ValueRules, stored: string): string | null {
  if (typeof stored !== 'string') return 'the value must be given as a string'
  if (stored === '' && (variable.type === 'string' || variable.type === 'text')) return null
  let typed: ConfigValue = stored
  if (variable.type === 'number' || variable.type === 'filesize') {
    if (!/^-?\d+(\.\d+)?$/.test(stored)) return `"${stored}" is not a ${variable.type}`
    typed = Number(stored)
  } else if (variable.type === 'boolean') {
    if (stored !== 'true' && stored !== 'false') return `"${stored}" is not a boolean`
    typed = stored === 'true'
  }
  const result = checkValue(variable, typed)
  return result.ok ? null : result.message
}
