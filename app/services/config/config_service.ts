/**
 * Reads and writes configuration variables. Definitions come from
 * `configRegistry`; values live in the `config_variables` table and are read
 * on every call (no process cache, so several instances always agree).
 *
 * ```ts
 * import ConfigService from '#services/config/config_service'
 *
 * const configService = await app.container.make(ConfigService) // or inject it
 * const maxSize = await configService.get('share.maxSize') // number
 * const config = await configService.snapshot()            // one query, sync typed reads
 * if (config.get('smtp.enabled')) { ... }
 * ```
 */
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import { configRegistry, type ConfigRegistry } from '#extensions/config/registry'
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import type { ConfigValue, RegisteredConfigCategory } from '#extensions/config/types'
import { checkStoredValue, checkValue, parseStoredValue } from '#extensions/config/values'
import { registerCoreConfigCategories, type CoreConfigValues } from '#services/config/definitions'
import {
  ConfigCategoryNotFoundException,
  ConfigVariableNotEditableException,
  ConfigVariableNotFoundException,
  InvalidConfigValueException,
  InvalidSeedValueException,
} from '#services/config/config_errors'
import {
  effectiveString,
  OBSCURED_MASK,
  type ConfigVariableResource,
  type StoredConfigValue,
} from '#services/config/stored_value'
import {
  isPingvinCategory,
  pingvinCategory,
  pingvinPublicVariables,
  readOnlyReason,
  registeredKeysOf,
} from '#services/config/pingvin_view'

export { OBSCURED_MASK }
export type { ConfigVariableResource }

/**
 * Key → type of the effective value. Holds every core variable; a plugin may
 * add its own keys by declaration merging:
 *
 * ```ts
 * declare module '#services/config/config_service' {
 *   interface ConfigValues { 's3.bucket': string }
 * }
 * ```
 */
export interface ConfigValues extends CoreConfigValues {}

/** A key with a known value type. */
export type ConfigKey = keyof ConfigValues

/**
 * One change of `update()`: `value` as it came from JSON (typed: number,
 * boolean or string by the variable's type); `""` or null resets to the
 * default; a missing value is a type error.
 */
export interface ConfigChange {
  key: string
  value?: unknown
}

/**
 * Which view of the configuration a reader gets: Tern's own (the default:
 * every registered variable, with Tern's extensions), or with `pingvin`
 * what a Pingvin 1.x client may see (only Pingvin's keys, in its order; see
 * `#services/config/pingvin_view`). The HTTP routes answer the Pingvin view
 * unless the client opts in with `?ext=1`.
 */
export interface ConfigViewOptions {
  pingvin?: boolean
}

/** The stored value of one row, null when unset. */
type StoredRow = StoredConfigValue

/**
 * All effective values read at one moment (one query). `get` is synchronous
 * and typed like `ConfigService.get`.
 */
export class ConfigSnapshot {
  constructor(
    protected registry: ConfigRegistry,
    protected rows: Map<string, StoredRow>
  ) {}

  /** The effective value of a variable (throws for an unknown key). */
  get<K extends ConfigKey>(key: K): ConfigValues[K]
  get(key: string): ConfigValue
  get(key: string): ConfigValue {
    const variable = this.registry.find(key)
    if (!variable) throw new Error(`Unknown config variable "${key}"`)
    return parseStoredValue(variable, effectiveString(variable, this.rows.get(key)))
  }
}

/**
 * See the module comment. Stateless (values are read from the database on
 * every call): resolve it from the container or inject it.
 */
@inject()
export default class ConfigService {
  /** Where the variables are defined. */
  protected registry: ConfigRegistry = configRegistry

  /**
   * The effective value of one variable (its value, or the default when
   * unset or empty): a number for number/filesize, a boolean for boolean, a
   * string for string/text/timespan. Throws for a key that is not registered
   * (a programming error).
   */
  async get<K extends ConfigKey>(key: K): Promise<ConfigValues[K]>
  async get(key: string): Promise<ConfigValue>
  async get(key: string): Promise<ConfigValue> {
    const variable = this.registry.find(key)
    if (!variable) throw new Error(`Unknown config variable "${key}"`)
    const row = await ConfigVariable.find(key)
    return parseStoredValue(variable, effectiveString(variable, row ?? undefined))
  }

  /**
   * The value an admin (or an import) stored, without falling back to the
   * default: null while the variable is unset or empty. For settings whose
   * "not chosen yet" matters (`general.appUrl`: `#services/links/link_base`).
   * Throws for a key that is not registered (a programming error).
   */
  async stored(key: ConfigKey): Promise<string | null> {
    if (!this.registry.find(key)) throw new Error(`Unknown config variable "${key}"`)
    const variable = await ConfigVariable.find(key)
    const value = variable?.value
    return value === null || value === undefined || value === '' ? null : value
  }

  /** Every effective value at once (one query). */
  async snapshot(): Promise<ConfigSnapshot> {
    return new ConfigSnapshot(this.registry, await this.#rows())
  }

  /**
   * The public variables (`GET /api/configs`), in category and variable
   * order; with `pingvin`, only Pingvin's public keys (those Tern lacks with
   * Pingvin's defaults).
   */
  async publicVariables(options: ConfigViewOptions = {}): Promise<ConfigVariableResource[]> {
    const rows = await this.#rows()
    if (options.pingvin) return pingvinPublicVariables(this.registry, rows)
    return this.registry
      .all()
      .filter((variable) => variable.public)
      .map((variable) => ({ variable, stored: rows.get(variable.key) }))
  }

  /**
   * The categories of the admin panel's configuration menu, in order (core
   * General, Share, Email, SMTP, Social Login, then plugin categories);
   * hidden categories are left out.
   */
  adminCategories(): RegisteredConfigCategory[] {
    return this.registry.categories().filter((category) => !category.hidden)
  }

  /**
   * The variables of one category for admins, with their stored rows
   * (ConfigVariableTransformer masks obscured values).
   * A category of Pingvin's admin menu (general ... legal, cache) answers
   * Pingvin's keys in Pingvin's order with `pingvin`, and always when Tern
   * has no such category (a disabled plugin's `s3`/`ldap`, `cache`), with
   * Pingvin's defaults, read-only, for the keys Tern lacks. Throws
   * `ConfigCategoryNotFoundException` (404) for any other unknown or hidden
   * category.
   */
  async adminCategory(
    category: string,
    options: ConfigViewOptions = {}
  ): Promise<ConfigVariableResource[]> {
    const definition = this.registry.category(category)
    if (isPingvinCategory(category) && (options.pingvin || !definition)) {
      return pingvinCategory(
        this.registry,
        category,
        await this.#rows(registeredKeysOf(this.registry, category))
      )
    }
    if (!definition || definition.hidden) throw new ConfigCategoryNotFoundException(category)
    const rows = await this.#rows(definition.variables.map((variable) => variable.key))
    return definition.variables.map((variable) => ({ variable, stored: rows.get(variable.key) }))
  }

  /**
   * Applies admin changes, all or nothing. Every item is checked first:
   * unknown key → 404 "Config variable {key} not found"; `allowEdit: false`
   * or a Pingvin key Tern answers read-only (`cache.*`, a disabled plugin's
   * setting) → 400 saying why; wrong JSON type → 400 "Config variable must be of type <type>";
   * a broken rule → 400 with the rule's message. `""` or null resets the
   * variable to its default; the mask sent back for an obscured variable
   * keeps the stored secret. Then all values are written in one transaction.
   * Returns each changed variable with its row (request order, once each).
   */
  async update(changes: readonly ConfigChange[]): Promise<ConfigVariableResource[]> {
    const writes = new Map<string, string | null>()
    const keys: string[] = []
    for (const change of changes) {
      const variable = this.registry.find(change.key)
      if (!variable) {
        const reason = readOnlyReason(change.key)
        if (reason) throw new ConfigVariableNotEditableException(change.key, reason)
        throw new ConfigVariableNotFoundException(change.key)
      }
      if (!variable.allowEdit) throw new ConfigVariableNotEditableException(change.key)
      if (!keys.includes(variable.key)) keys.push(variable.key)

      if (change.value === '' || change.value === null) {
        writes.set(variable.key, null)
        continue
      }
      if (variable.obscured && change.value === OBSCURED_MASK) {
        writes.delete(variable.key)
        continue
      }
      const result = checkValue(variable, change.value)
      if (!result.ok) throw new InvalidConfigValueException(result.message)
      writes.set(variable.key, result.stored)
    }

    if (writes.size > 0) {
      await db.transaction(async (trx) => {
        for (const [key, value] of writes) {
          const row = await ConfigVariable.find(key, { client: trx })
          if (row) {
            row.value = value
            await row.useTransaction(trx).save()
          } else {
            await ConfigVariable.create({ key, value }, { client: trx })
          }
        }
      })
    }

    const rows = await this.#rows(keys)
    return keys.map((key) => ({ variable: this.registry.find(key)!, stored: rows.get(key) }))
  }

  /**
   * Stores one value on the server's own behalf: checked like an update
   * (type and rules, `InvalidConfigValueException` when refused) but allowed
   * for variables admins cannot edit (`allowEdit: false`, e.g.
   * `internal.setupFinished`). Throws for a key that is not registered (a
   * programming error).
   */
  async set<K extends ConfigKey>(key: K, value: ConfigValues[K]): Promise<void> {
    const variable = this.registry.find(key)
    if (!variable) throw new Error(`Unknown config variable "${key}"`)
    const result = checkValue(variable, value)
    if (!result.ok) throw new InvalidConfigValueException(result.message)
    await ConfigVariable.updateOrCreate({ key }, { value: result.stored })
  }

  /**
   * The first values the environment gives (key → value as stored): for
   * each variable declaring `seedFromEnv` whose environment variable is set
   * and not empty. Booleans are `true`/`false` in any case. Throws
   * `InvalidSeedValueException` naming the environment variable for a value
   * the setting refuses (checked like an admin's value).
   */
  seedValuesFromEnv(env: Record<string, string | undefined> = process.env): Map<string, string> {
    const values = new Map<string, string>()
    for (const variable of this.registry.all()) {
      const raw = variable.seedFromEnv ? env[variable.seedFromEnv] : undefined
      if (raw === undefined || raw.trim() === '') continue
      const stored = ['boolean', 'number', 'filesize'].includes(variable.type)
        ? raw.trim().toLowerCase()
        : raw
      const refused = checkStoredValue(variable, stored)
      if (refused) throw new InvalidSeedValueException(variable.seedFromEnv!, variable.key, refused)
      values.set(variable.key, stored)
    }
    return values
  }

  /**
   * Makes sure every registered variable has a row: new keys are inserted
   * with the value the environment gives them (`seedFromEnv`, see
   * `seedValuesFromEnv`) or unset (effective value = default). A row that
   * holds no value of its own takes the environment's value too, so a
   * variable set after the first start still applies; a stored value is
   * kept, so the environment never overrides a setting already made (an
   * admin's change stays). Rows of keys no longer defined are left alone (a
   * disabled plugin keeps its settings). Safe when several instances seed at
   * once. Returns the keys that were added. `env` is the process's
   * environment unless given.
   */
  async seed(env: Record<string, string | undefined> = process.env): Promise<string[]> {
    const fromEnv = this.seedValuesFromEnv(env)
    const keys = this.registry.all().map((variable) => variable.key)
    const rows: { key: string; value: string | null }[] = await db
      .from(ConfigVariable.table)
      .select('key', 'value')
    const existing = new Map(rows.map((row) => [row.key, row.value]))
    const missing = keys.filter((key) => !existing.has(key))
    const client = db.connection()
    const now = DateTime.utc().toFormat(client.dialect.dateTimeFormat)
    for (const [key, value] of fromEnv) {
      if (!existing.has(key) || existing.get(key) !== null) continue
      // Conditional, so a value stored meanwhile (an admin, another instance) is never overwritten.
      await client
        .from(ConfigVariable.table)
        .where('key', key)
        .whereNull('value')
        .update({ value, updated_at: now })
    }
    if (missing.length === 0) return []
    await client
      .knexQuery()
      .table(ConfigVariable.table)
      .insert(
        missing.map((key) => ({
          key,
          value: fromEnv.get(key) ?? null,
          created_at: now,
          updated_at: now,
        }))
      )
      .onConflict('key')
      .ignore()
    return missing
  }

  /** The stored rows, all of them or only the given keys. */
  async #rows(keys?: string[]): Promise<Map<string, StoredRow>> {
    const query = ConfigVariable.query()
    if (keys) query.whereIn('key', keys)
    const rows = await query
    return new Map(rows.map((row) => [row.key, { value: row.value, updatedAt: row.updatedAt }]))
  }
}

registerCoreConfigCategories()

/**
 * The effective value of one variable, read through the container's
 * `ConfigService`: for code the container does not build (models, free
 * functions). Classes inject `ConfigService` instead.
 */
export async function configValue<K extends ConfigKey>(key: K): Promise<ConfigValues[K]> {
  const service = await app.container.make(ConfigService)
  return service.get(key)
}

/** Every effective value at once, through the container's `ConfigService` (see `configValue`). */
export async function configSnapshot(): Promise<ConfigSnapshot> {
  const service = await app.container.make(ConfigService)
  return service.snapshot()
}
