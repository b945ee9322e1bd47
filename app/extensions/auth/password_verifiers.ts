/**
 * Password verifiers: sign-in with a login name and a password checked by a
 * directory outside Tern (LDAP, ...), contributed by plugins.
 *
 * THE CONTRACT (what a plugin registers, in its provider's `boot()`):
 *
 * ```ts
 * passwordVerifiers.register({
 *   id: 'ldap',                                   // social_accounts.provider of the link
 *   enabled: async () => (await configValues.get('ldap.enabled')) === true,
 *   verify: async (login, password) => ({ id: dn, username: login, email, isAdmin }),
 * })
 * ```
 *
 * - `POST /api/auth/signIn` checks the local password first (unless
 *   `oauth.disablePassword`), then asks each enabled verifier in
 *   registration order; the first identity wins.
 * - `verify` answers the identity when the password is right, and null when
 *   the login is unknown or the password wrong (the caller answers the same
 *   401 "Wrong email or password" as for a local account). It must treat an
 *   empty password as wrong.
 * - It throws `E_PASSWORD_VERIFIER_UNAVAILABLE` when the directory cannot
 *   answer (unreachable, service account refused, settings missing): the
 *   core logs it and, when no other check signed the user in, answers 503.
 * - The core owns the account: the user linked to `(id, identity.id)` in
 *   `social_accounts`, else a user with the same username and e-mail (then
 *   linked), else a new one. `isAdmin`, when given, is applied at every
 *   sign-in; the e-mail too. TOTP applies as for a local password.
 */
import { createError } from '@adonisjs/core/exceptions'

/** The account a verifier vouches for. */
export interface VerifiedIdentity {
  /** Stable id of the account in the directory (the entry's DN): the link's `provider_user_id`. */
  id: string
  /** Username of a new Tern account (the login name). */
  username: string
  /** The e-mail address in the directory, or null (a new account then gets `<uuid>@<verifier id>.local`). */
  email: string | null
  /** The admin flag the directory grants (re-applied at each sign-in), or undefined when it does not manage it. */
  isAdmin?: boolean
}

/** One verifier, as a plugin registers it. */
export interface PasswordVerifier {
  /** Lower-case kebab id, stored as the provider of the account link (`ldap`). */
  id: string
  /** Whether it is switched on now (read at every sign-in: an admin change applies at once). */
  enabled(): Promise<boolean>
  /**
   * The identity when `password` is right for `login`, else null. Throws
   * `E_PASSWORD_VERIFIER_UNAVAILABLE` when the directory cannot answer.
   */
  verify(login: string, password: string): Promise<VerifiedIdentity | null>
}

/** The directory could not answer (the sign-in answers 503; the reason is logged, never sent). */
export const E_PASSWORD_VERIFIER_UNAVAILABLE = createError<[id: string, reason: string]>(
  'Sign-in directory "%s" is unavailable: %s',
  'E_PASSWORD_VERIFIER_UNAVAILABLE',
  503
)

/** A verifier with a bad id, or a second one under a taken id. */
export const E_PASSWORD_VERIFIER_INVALID = createError<[id: string, reason: string]>(
  'Password verifier "%s" cannot be registered: %s',
  'E_PASSWORD_VERIFIER_INVALID',
  500
)

const ID_PATTERN = /^[a-z][a-z0-9-]*$/

/** Holds the registered verifiers in registration order. */
export class PasswordVerifierRegistry {
  #verifiers = new Map<string, PasswordVerifier>()

  /** Registers a verifier. Throws `E_PASSWORD_VERIFIER_INVALID` for a bad or taken id or a missing method. */
  register(verifier: PasswordVerifier): this {
    if (!ID_PATTERN.test(verifier.id)) {
      throw new E_PASSWORD_VERIFIER_INVALID([verifier.id, 'id must match ^[a-z][a-z0-9-]*$'])
    }
    if (typeof verifier.verify !== 'function' || typeof verifier.enabled !== 'function') {
      throw new E_PASSWORD_VERIFIER_INVALID([verifier.id, 'enabled and verify must be functions'])
    }
    if (this.#verifiers.has(verifier.id))
      throw new E_PASSWORD_VERIFIER_INVALID([verifier.id, 'the id is taken'])
    this.#verifiers.set(verifier.id, verifier)
    return this
  }

  /** True when `id` is registered. */
  has(id: string): boolean {
    return this.#verifiers.has(id)
  }

  /** Every verifier, in registration order. */
  list(): PasswordVerifier[] {
    return [...this.#verifiers.values()]
  }

  /** The verifiers switched on now, in registration order. */
  async enabled(): Promise<PasswordVerifier[]> {
    const verifiers = this.list()
    const on = await Promise.all(verifiers.map((verifier) => verifier.enabled()))
    return verifiers.filter((_, index) => on[index])
  }
}

/** The application's password verifiers. */
export const passwordVerifiers = new PasswordVerifierRegistry()
