/**
 * A configuration variable's stored row and the value it stands for, for
 * the config service (#services/config/config_service) and for the
 * transformer that shapes the API items (#transformers/config_variable_transformer).
 */
import type { DateTime } from 'luxon'
import type { RegisteredConfigVariable } from '#extensions/config/types'

/** What an obscured variable's value reads as when it is set. */
export const OBSCURED_MASK = '********'

/** The stored row of a variable: its value (null when unset) and when it was last written. */
export interface StoredConfigValue {
  value: string | null
  updatedAt: DateTime | null
}

/** A registered variable with its stored row (undefined when it has none). */
export interface ConfigVariableResource {
  variable: RegisteredConfigVariable
  stored: StoredConfigValue | undefined
}

/** The effective value as a string: the stored value, or the default when unset or empty. */
export function effectiveString(
  variable: RegisteredConfigVariable,
  stored: StoredConfigValue | undefined
): string {
  const value = stored?.value
  return value === null || value === undefined || value === '' ? variable.defaultValue : value
}
