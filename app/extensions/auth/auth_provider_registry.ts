/**
 * Registry of sign-in providers contributed by plugins. The sign-in routes
 * look providers up here by id; a provider is offered only when its
 * `enabledKey` config variable is true (decided by the caller).
 */
import {
  E_AUTH_PROVIDER_EXISTS,
  E_AUTH_PROVIDER_INVALID,
  E_AUTH_PROVIDER_UNKNOWN,
} from './errors.js'
import type { AuthProviderDefinition } from './types.js'

const ID_PATTERN = /^[a-z][a-z0-9-]*$/

/** Holds the registered auth providers in registration order. */
export class AuthProviderRegistry {
  #providers = new Map<string, AuthProviderDefinition>()

  /**
   * Registers a provider. Throws `E_AUTH_PROVIDER_INVALID` when the id is not
   * lower-case kebab or the factory is missing, `E_AUTH_PROVIDER_EXISTS` when
   * the id is taken.
   */
  register(definition: AuthProviderDefinition): this {
    if (!ID_PATTERN.test(definition.id)) {
      throw new E_AUTH_PROVIDER_INVALID([definition.id, 'id must match ^[a-z][a-z0-9-]*$'])
    }
    if (typeof definition.driver !== 'function') {
      throw new E_AUTH_PROVIDER_INVALID([definition.id, 'driver must be a factory function'])
    }
    if (this.#providers.has(definition.id)) throw new E_AUTH_PROVIDER_EXISTS([definition.id])
    this.#providers.set(definition.id, definition)
    return this
  }

  /** True when `id` is registered. */
  has(id: string): boolean {
    return this.#providers.has(id)
  }

  /** The provider `id`. Throws `E_AUTH_PROVIDER_UNKNOWN`. */
  get(id: string): AuthProviderDefinition {
    const provider = this.#providers.get(id)
    if (!provider) throw new E_AUTH_PROVIDER_UNKNOWN([id])
    return provider
  }

  /** Every registered provider, in registration order. */
  list(): AuthProviderDefinition[] {
    return [...this.#providers.values()]
  }
}
