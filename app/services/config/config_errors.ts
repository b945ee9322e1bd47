import { Exception } from '@adonisjs/core/exceptions'

/** 404 "Config variable {key} not found": the key is not registered. */
export class ConfigVariableNotFoundException extends Exception {
  static status = 404
  static code = 'E_CONFIG_VARIABLE_NOT_FOUND'

  constructor(key: string) {
    super(`Config variable ${key} not found`)
  }
}

/** 404 "Config category {id} not found". */
export class ConfigCategoryNotFoundException extends Exception {
  static status = 404
  static code = 'E_CONFIG_CATEGORY_NOT_FOUND'

  constructor(category: string) {
    super(`Config category ${category} not found`)
  }
}

/**
 * 400 for a value the variable does not accept: "Config variable must be of
 * type <type>" for a wrong JSON type, or the rule's message (out of range,
 * bad format...).
 */
export class InvalidConfigValueException extends Exception {
  static status = 400
  static code = 'E_INVALID_CONFIG_VALUE'
}

/**
 * 400 "Config variable {key} cannot be edited": the definition has
 * `allowEdit: false`, or the key is one of Pingvin's that Tern answers
 * read-only; `reason` then says why (": <reason>" is appended).
 */
export class ConfigVariableNotEditableException extends Exception {
  static status = 400
  static code = 'E_CONFIG_VARIABLE_NOT_EDITABLE'

  constructor(key: string, reason?: string) {
    super(
      reason
        ? `Config variable ${key} cannot be edited: ${reason}`
        : `Config variable ${key} cannot be edited`
    )
  }
}

/**
 * An environment variable that seeds a setting on its first start
 * (`seedFromEnv`) holds a value the setting refuses; the start stops with
 * this message, which names both.
 */
export class InvalidSeedValueException extends Exception {
  static status = 500
  static code = 'E_INVALID_CONFIG_SEED'

  constructor(envName: string, key: string, reason: string) {
    super(
      `Value for environment variable "${envName}" (the first value of ${key}) is refused: ${reason}`
    )
  }
}
