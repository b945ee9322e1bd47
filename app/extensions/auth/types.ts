/**
 * Contracts of the auth-provider extension point: sign-in providers (OAuth 2 /
 * OpenID Connect) contributed by plugins, built on `@adonisjs/ally` 6.
 *
 * THE CONTRACT (what a provider plugin registers, in its provider's `boot()`):
 *
 * ```ts
 * authProviders.register({
 *   id: 'github',                        // URL + social-accounts id
 *   displayName: 'GitHub',
 *   enabledKey: 'oauth.github-enabled',   // config variable switching it on
 *   configKeys: ['oauth.github-clientId', 'oauth.github-clientSecret'],
 *   driver: (ctx, { config, callbackUrl, nonce }) =>
 *     new GithubDriver(ctx, { clientId: ..., clientSecret: ..., callbackUrl }),
 * })
 * ```
 *
 * - `driver` returns any Ally OAuth 2 driver (`AllyDriverContract`, version
 *   `oauth2`): a built-in one (`GithubDriver` from `@adonisjs/ally/drivers/github`),
 *   an `Oauth2Driver` subclass of the plugin, or a community driver from npm.
 *   It is called per request with the current settings (`config`, read
 *   per request: an admin change applies without restart).
 * - The core owns the flow around the driver: the state cookie
 *   `oauth_<provider>_state` (encrypted, HttpOnly, path `/api/oauth/callback`,
 *   10 minutes) holding state, PKCE verifier and nonce. It adds the state and
 *   (unless `pkce: false`) the S256 challenge to the driver's `redirectUrl()`
 *   and feeds the driver the state and the PKCE verifier at the callback
 *   (#controllers/oauth/ally_driver), so a driver works unchanged and never
 *   writes cookies of its own. It then reads `driver.user()` and maps Ally's
 *   user to a `SocialProfile` (see `profile` below): `id`, `nickName`/`name`,
 *   `email`, `emailVerificationState === 'verified'`, `token.idToken`.
 * - Nonce / ID-token checks (OIDC): the driver sends `context.nonce` in its
 *   authorization request (e.g. in `configureRedirectRequest`) and, in
 *   `user()`, verifies the ID token (signature, issuer, audience, expiry,
 *   `nonce === context.nonce`). At the callback `context.nonce` is the one
 *   kept in the state cookie. It throws `SocialLoginException` with a code
 *   of the error page (`invalid_token`, `unverified_account`...) to refuse.
 * - Sign-out at the provider: the optional `signOutUrl` of the definition.
 *   A session keeps the ID token (`user.token.idToken`, a string) only when
 *   the definition has `signOutUrl`.
 * - Any other error thrown by `user()` (HTTP errors of the token or user
 *   endpoints) is shown as `cannot_get_user_info`; a refused code
 *   (`invalid_grant`, GitHub's `bad_verification_code`) as `expired_token`.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { AllyDriverContract, AllyUserContract } from '@adonisjs/ally/types'

/** Any Ally OAuth 2 driver (built-in, own `Oauth2Driver` subclass, or from npm). */
export type AllyDriver = AllyDriverContract<any, any>

/** The user an Ally driver answers. */
export type AllyUser = AllyUserContract<any>

/** What a provider's factory receives when the sign-in flow needs its driver. */
export interface AuthProviderContext {
  /** The effective values of the provider's config variables, keyed by full key (read per request). */
  config: Readonly<Record<string, string | number | boolean>>
  /** Absolute callback URL the provider must redirect to (`/api/oauth/callback/<id>`): Ally's `callbackUrl`. */
  callbackUrl: string
  /**
   * The OIDC nonce of this sign-in: new at the redirect, the one of the
   * state cookie at the callback ('' outside a sign-in, e.g. for
   * `signOutUrl`). Drivers without ID tokens ignore it.
   */
  nonce: string
}

/** The account at the provider, as the core uses it. */
export interface SocialProfile {
  /** Stable account id at the provider (`sub` for OIDC). */
  id: string
  /** Display name at the provider; also the base of a new user's username. */
  username: string
  /** The account's e-mail address, or null when the provider gives none. */
  email: string | null
  /**
   * Whether the provider vouches for the e-mail address. A sign-up or an
   * e-mail match with `false` fails with `unverified_account`.
   */
  emailVerified: boolean
  /** The OIDC ID token, kept with the session for sign-out at the provider (only for providers with `signOutUrl`). */
  idToken?: string | null
}

/**
 * Builds the provider's Ally driver for this request. May throw (settings
 * missing or wrong); the flow then answers the `default` error page.
 */
export type AuthProviderFactory = (
  ctx: HttpContext,
  context: AuthProviderContext
) => AllyDriver | Promise<AllyDriver>

/** One sign-in provider, as a plugin registers it. */
export interface AuthProviderDefinition {
  /** Lower-case id used in URLs, the state cookie name and the social-accounts table (`github`, `oidc`). */
  id: string
  /** Name shown on buttons and the error page ("GitHub", "OpenID Connect"). */
  displayName: string
  /** The config variable that switches it on (`oauth.github-enabled`). */
  enabledKey: string
  /** Every config variable it reads (client id, secret, ...), full keys. */
  configKeys: string[]
  /** Builds the Ally driver (per request). */
  driver: AuthProviderFactory
  /**
   * Whether the core sends a PKCE (S256) challenge and the verifier
   * (default true). False for providers that reject PKCE parameters.
   */
  pkce?: boolean
  /**
   * Optional: the profile of Ally's user when the default mapping does not
   * fit (default: `id`, `nickName || name`, `email`,
   * `emailVerificationState === 'verified'`). May throw `SocialLoginException`.
   */
  profile?: (user: AllyUser, context: AuthProviderContext) => SocialProfile | Promise<SocialProfile>
  /**
   * Optional: the provider's end-session URL for a session signed in with
   * `idToken`, or null when sign-out at the provider is off (read the
   * setting from `context.config`).
   */
  signOutUrl?: (
    context: AuthProviderContext,
    idToken: string,
    postLogoutRedirectUri: string
  ) => Promise<string | null>
}
