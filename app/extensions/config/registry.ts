/**
 * The registry of configuration categories and variables. Core categories
 * are registered by the Tern provider (register phase); plugins add theirs
 * with `configRegistry.defineCategory(...)` while they load (boot phase),
 * before the variables are seeded into the database at start.
 *
 * ```ts
 * import { configRegistry } from '#extensions/config/registry'
 *
 * configRegistry.defineCategory({
 *   id: 's3',
 *   displayName: 'S3',
 *   order: 100,
 *   source: 's3-storage',
 *   variables: [
 *     { key: 's3.bucket', type: 'string', defaultValue: '' },
 *     { key: 's3.secret', type: 'string', defaultValue: '', obscured: true },
 *   ],
 * })
 * ```
 *
 * A plugin may also add variables to an existing category with
 * `{ id: 'oauth', extend: true, variables: [...] }` (a sign-in provider's
 * settings in "Social Login"); see `extendCategory`.
 */
import { Exception } from '@adonisjs/core/exceptions'
import {
  CONFIG_VARIABLE_TYPES,
  type ConfigCategoryDefinition,
  type ConfigCategoryExtension,
  type ConfigVariableDefinition,
  type RegisteredConfigCategory,
  type RegisteredConfigVariable,
} from '#extensions/config/types'
import { checkStoredValue } from '#extensions/config/values'

/**
 * Raised by `defineCategory` when a definition is refused. `code` is one of
 * `E_CONFIG_INVALID_DEFINITION`, `E_CONFIG_DUPLICATE_CATEGORY`,
 * `E_CONFIG_DUPLICATE_KEY`; the message names the category or key.
 */
export class ConfigDefinitionException extends Exception {
  static status = 500
}

/** An `E_CONFIG_INVALID_DEFINITION` error. */
function invalid(message: string): ConfigDefinitionException {
  return new ConfigDefinitionException(message, { code: 'E_CONFIG_INVALID_DEFINITION' })
}

/** Whether `definition` adds to an existing category (`extend: true`). */
function isExtension(
  definition: ConfigCategoryDefinition | ConfigCategoryExtension
): definition is ConfigCategoryExtension {
  return 'extend' in definition && definition.extend === true
}

const CATEGORY_ID = /^[a-z][a-zA-Z0-9_]*$/
const VARIABLE_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/

/**
 * Holds every configuration category and variable known to this process.
 * Use the `configRegistry` singleton; the class is exported for tests.
 */
export class ConfigRegistry {
  #categories = new Map<string, RegisteredConfigCategory>()
  #variables = new Map<string, RegisteredConfigVariable>()

  /**
   * Registers a category and its variables, all or nothing. Throws a
   * `ConfigDefinitionException` when the category id is taken
   * (`E_CONFIG_DUPLICATE_CATEGORY`), a key is already registered or repeated
   * (`E_CONFIG_DUPLICATE_KEY`), or anything is malformed: id, display name,
   * key not `<category>.<name>`, unknown type, a default that is not a valid
   * value of its type or breaks its own rules, min > max
   * (`E_CONFIG_INVALID_DEFINITION`). Returns the registered category.
   */
  defineCategory(
    definition: ConfigCategoryDefinition | ConfigCategoryExtension
  ): RegisteredConfigCategory {
    if (!definition || typeof definition !== 'object') {
      throw invalid('A config category definition must be an object')
    }
    if (isExtension(definition)) return this.extendCategory(definition)
    const { id } = definition
    if (typeof id !== 'string' || !CATEGORY_ID.test(id)) {
      throw invalid(
        `Invalid config category id "${String(id)}": use lower camel case letters and digits`
      )
    }
    if (typeof definition.displayName !== 'string' || definition.displayName.trim() === '') {
      throw invalid(`Config category "${id}" needs a displayName`)
    }
    if (typeof definition.order !== 'number' || !Number.isFinite(definition.order)) {
      throw invalid(`Config category "${id}" needs a numeric order`)
    }
    if (!Array.isArray(definition.variables)) {
      throw invalid(`Config category "${id}" needs a variables array`)
    }
    if (this.#categories.has(id)) {
      throw new ConfigDefinitionException(
        `Config category "${id}" is already defined (by ${this.#categories.get(id)!.source})`,
        { code: 'E_CONFIG_DUPLICATE_CATEGORY' }
      )
    }

    const source = definition.source ?? 'core'
    const variables = this.#checkVariables(id, definition.variables, source, 0)

    variables.sort((a, b) => a.order - b.order)
    const category: RegisteredConfigCategory = Object.freeze({
      id,
      displayName: definition.displayName,
      order: definition.order,
      source,
      hidden: definition.hidden ?? false,
      variables: Object.freeze(variables),
    })
    this.#categories.set(id, category)
    for (const variable of variables) this.#variables.set(variable.key, variable)
    return category
  }

  /**
   * Adds variables to the existing category `extension.id`, all or nothing,
   * with the checks of `defineCategory` (`E_CONFIG_INVALID_DEFINITION` when
   * the category does not exist). Variables without an `order` come after
   * the category's. Returns the category with its new variables.
   */
  extendCategory(extension: ConfigCategoryExtension): RegisteredConfigCategory {
    const existing =
      typeof extension.id === 'string' ? this.#categories.get(extension.id) : undefined
    if (!existing) {
      throw invalid(
        `Config category "${String(extension.id)}" cannot be extended: it is not defined`
      )
    }
    if (!Array.isArray(extension.variables)) {
      throw invalid(`The extension of config category "${existing.id}" needs a variables array`)
    }
    const after = existing.variables.reduce((max, variable) => Math.max(max, variable.order + 1), 0)
    const added = this.#checkVariables(
      existing.id,
      extension.variables,
      extension.source ?? 'core',
      after
    )
    const variables = [...existing.variables, ...added].sort((a, b) => a.order - b.order)
    const category: RegisteredConfigCategory = Object.freeze({
      ...existing,
      variables: Object.freeze(variables),
    })
    this.#categories.set(existing.id, category)
    for (const variable of added) this.#variables.set(variable.key, variable)
    return category
  }

  /**
   * Checks the variables of category `id` (keys `<id>.<name>`, none taken,
   * valid types, defaults and rules) and resolves their optional fields.
   * `firstOrder` is the order of the first one without an explicit `order`.
   */
  #checkVariables(
    id: string,
    definitions: readonly ConfigVariableDefinition[],
    source: string,
    firstOrder: number
  ): RegisteredConfigVariable[] {
    const seen = new Set<string>()
    return definitions.map((variable, index) => {
      const key = variable?.key
      if (typeof key !== 'string' || !key.startsWith(`${id}.`)) {
        throw invalid(`Config variable key "${String(key)}" must start with "${id}."`)
      }
      const name = key.slice(id.length + 1)
      if (!VARIABLE_NAME.test(name)) {
        throw invalid(
          `Invalid config variable key "${key}": the name must be letters, digits, "_" or "-"`
        )
      }
      if (seen.has(key) || this.#variables.has(key)) {
        throw new ConfigDefinitionException(`Config variable "${key}" is already defined`, {
          code: 'E_CONFIG_DUPLICATE_KEY',
        })
      }
      seen.add(key)
      if (!CONFIG_VARIABLE_TYPES.includes(variable.type)) {
        throw invalid(`Config variable "${key}" has an unknown type "${String(variable.type)}"`)
      }
      const validation = variable.validation ?? {}
      if (
        validation.min !== undefined &&
        validation.max !== undefined &&
        validation.min > validation.max
      ) {
        throw invalid(`Config variable "${key}" has min greater than max`)
      }
      if (validation.validate !== undefined && typeof validation.validate !== 'function') {
        throw invalid(`Config variable "${key}": validation.validate must be a function`)
      }
      const defaultError = checkStoredValue(
        { key, type: variable.type, validation },
        variable.defaultValue
      )
      if (defaultError) {
        throw invalid(`Config variable "${key}" has an invalid default: ${defaultError}`)
      }
      if (variable.public && variable.obscured) {
        throw invalid(`Config variable "${key}" cannot be both public and obscured`)
      }
      if (variable.seedFromEnv !== undefined && !ENV_NAME.test(variable.seedFromEnv)) {
        throw invalid(
          `Config variable "${key}": seedFromEnv must be an environment variable name such as S3_BUCKET`
        )
      }
      return Object.freeze({
        key,
        category: id,
        name,
        type: variable.type,
        defaultValue: variable.defaultValue,
        public: variable.public ?? false,
        obscured: variable.obscured ?? false,
        allowEdit: variable.allowEdit ?? true,
        order: variable.order ?? firstOrder + index,
        validation,
        description: variable.description,
        seedFromEnv: variable.seedFromEnv,
        source,
      })
    })
  }

  /** Every category, sorted by order (then id). */
  categories(): RegisteredConfigCategory[] {
    return [...this.#categories.values()].sort(
      (a, b) => a.order - b.order || a.id.localeCompare(b.id)
    )
  }

  /** One category by id, or undefined. */
  category(id: string): RegisteredConfigCategory | undefined {
    return this.#categories.get(id)
  }

  /** One variable by key (`share.maxSize`), or undefined. */
  find(key: string): RegisteredConfigVariable | undefined {
    return this.#variables.get(key)
  }

  /** Every variable, by category order then variable order. */
  all(): RegisteredConfigVariable[] {
    return this.categories().flatMap((category) => category.variables)
  }
}

/** The registry of this process. */
export const configRegistry = new ConfigRegistry()
