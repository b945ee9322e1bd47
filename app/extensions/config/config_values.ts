/**
 * Read (and write) access to the effective configuration values for code
 * that must not import `#services/*`: plugins. The core binds the config
 * service at boot (`providers/tern_provider.ts`); plugins read through
 * `configValues` at run time, so an admin change takes effect on the next
 * read (nothing is cached here).
 *
 * ```ts
 * import { configValues } from '#extensions/config/config_values'
 *
 * const enabled = await configValues.get('s3.enabled')                  // true
 * const s3 = await configValues.getMany(['s3.endpoint', 's3.region'])  // one query
 * s3['s3.endpoint']                                                     // 'http://...'
 * ```
 */
import { createError } from '@adonisjs/core/exceptions'
import type { ConfigValue } from '#extensions/config/types'

/** A read before the core bound its config service (a programming error). */
export const E_CONFIG_VALUES_UNBOUND = createError(
  'Configuration values are not available yet: the core binds them while the application boots',
  'E_CONFIG_VALUES_UNBOUND',
  500
)

/** One change for `configValues.update`: `""` or null resets to the default. */
export interface ConfigValueChange {
  key: string
  value?: unknown
}

/**
 * What the core binds: the config service satisfies it. Reads return the
 * effective typed value (number, boolean or string by the variable's type)
 * and throw for a key that is not registered.
 */
export interface ConfigValuesSource {
  /** The effective value of one variable. */
  get(key: string): Promise<ConfigValue>
  /** Every effective value read at one moment (one query). */
  snapshot(): Promise<{ get(key: string): ConfigValue }>
  /** Applies changes all or nothing, with the same checks as the admin API. */
  update(changes: readonly ConfigValueChange[]): Promise<unknown>
}

/** The accessor plugins use. Use the `configValues` singleton; the class is exported for tests. */
export class ConfigValues {
  #source?: ConfigValuesSource

  /** Binds the source of the values (the core does it once at boot; a later call replaces it). */
  bind(source: ConfigValuesSource): this {
    this.#source = source
    return this
  }

  /** True once a source is bound. */
  get isBound(): boolean {
    return this.#source !== undefined
  }

  #bound(): ConfigValuesSource {
    if (!this.#source) throw new E_CONFIG_VALUES_UNBOUND()
    return this.#source
  }

  /**
   * The effective value of `key`. Throws `E_CONFIG_VALUES_UNBOUND` before the
   * boot, and the source's error for an unknown key.
   */
  async get(key: string): Promise<ConfigValue> {
    return this.#bound().get(key)
  }

  /** The effective values of `keys`, read at one moment (one query), keyed by key. */
  async getMany<K extends string>(keys: readonly K[]): Promise<Record<K, ConfigValue>> {
    const snapshot = await this.#bound().snapshot()
    const values = {} as Record<K, ConfigValue>
    for (const key of keys) values[key] = snapshot.get(key)
    return values
  }

  /**
   * Changes values like `PATCH /api/configs/admin` does (same validation,
   * all or nothing; `""`/null resets). Throws the admin API's errors.
   */
  async update(changes: readonly ConfigValueChange[]): Promise<void> {
    await this.#bound().update(changes)
  }
}

/** The accessor of this process, bound to the config service at boot. */
export const configValues = new ConfigValues()
