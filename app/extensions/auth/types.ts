/**
 * Contracts of the auth-provider extension point: sign-in providers (OAuth /
 * OIDC) contributed by plugins. The drivers themselves will be Ally drivers
 * (@adonisjs/ally, not installed yet); until then the driver type is opaque.
 */

/** What a provider's factory receives when the sign-in flow needs its driver. */
export interface AuthProviderContext {
  /** The effective values of the provider's config variables, keyed by full key. */
  config: Readonly<Record<string, string | number | boolean>>
  /** Absolute callback URL the provider must redirect to (`/api/oauth/callback/<id>`). */
  callbackUrl: string
}

/**
 * Builds the provider's driver (an Ally driver once Ally is installed).
 * May throw when required settings are missing; the caller answers 400/500.
 */
export type AuthProviderFactory<Driver = unknown> = (
  context: AuthProviderContext
) => Driver | Promise<Driver>

/** One sign-in provider, as a plugin registers it. */
export interface AuthProviderDefinition<Driver = unknown> {
  /** Lower-case id used in URLs and the social-accounts table (`github`, `oidc`). */
  id: string
  /** Name shown on the sign-in button ("GitHub"). */
  displayName: string
  /** The config variable that switches it on (`oauth.github-enabled`). */
  enabledKey: string
  /** Every config variable it reads (client id, secret, ...), full keys. */
  configKeys: string[]
  /** Builds the driver. */
  driver: AuthProviderFactory<Driver>
}
