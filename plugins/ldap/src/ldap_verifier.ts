/**
 * The LDAP password verifier (Pingvin Share's LDAP sign-in, on ldapts):
 * connect to `ldap.url` (several URLs: the next one when a server cannot be
 * reached), bind as `ldap.bindDn` (anonymously when empty), search
 * `ldap.searchBase` (scope sub) with `ldap.searchQuery`, `%username%`
 * replaced by the login name ESCAPED per RFC 4515, then bind as the entry
 * found with the user's password.
 *
 * - Wrong password, unknown login, or a filter matching several entries
 *   (ambiguous, refused as Pingvin Share 1.x does): null, the caller's
 *   generic 401. An unknown login still costs a bind (to a DN that does not
 *   exist), so it takes as long as a wrong password.
 * - Server unreachable, service account refused, settings missing or a
 *   search the server rejects: `E_PASSWORD_VERIFIER_UNAVAILABLE` (logged by
 *   the core, answered 503).
 * - The identity: the entry's DN, the login name, the first value of
 *   `ldap.fieldNameEmail`, and `isAdmin` = one of the `ldap.fieldNameMemberOf`
 *   values equals `ldap.adminGroups` exactly (not managed when it is empty).
 */
import logger from '@adonisjs/core/services/logger'
import type { Client, Entry } from 'ldapts'
import {
  E_PASSWORD_VERIFIER_UNAVAILABLE,
  type PasswordVerifier,
  type VerifiedIdentity,
} from '#extensions/auth/password_verifiers'
import { USERNAME_PLACEHOLDER, type LdapSettings } from './settings.js'

/** Milliseconds to connect, and to wait for any answer. */
const TIMEOUT_MS = 10_000

/** ldapts, imported at the first sign-in (a disabled LDAP costs nothing). */
const ldapts = () => import('ldapts')

function unavailable(reason: string, cause?: unknown) {
  return new E_PASSWORD_VERIFIER_UNAVAILABLE(['ldap', reason], { cause })
}

/** The values of attribute `name` of `entry` (names compared ignoring case, as LDAP does). */
export function attributeValues(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((candidate) => candidate.toLowerCase() === name.toLowerCase())
  if (!key || key === 'dn') return []
  const value = entry[key]
  return (Array.isArray(value) ? value : [value]).map((item) => item.toString())
}

/** The filter of `settings` for `login`: every `%username%` becomes the RFC 4515-escaped login. */
export async function searchFilter(searchQuery: string, login: string): Promise<string> {
  const { Filter } = await ldapts()
  return searchQuery.replaceAll(USERNAME_PLACEHOLDER, Filter.escape(login))
}

/** See the module comment. */
export class LdapVerifier implements PasswordVerifier {
  readonly id = 'ldap'

  constructor(private options: { settings: () => Promise<LdapSettings> }) {}

  async enabled(): Promise<boolean> {
    const settings = await this.options.settings()
    return settings.enabled
  }

  async verify(login: string, password: string): Promise<VerifiedIdentity | null> {
    // An empty password would be an "unauthenticated bind" (RFC 4513 5.1.2), which servers accept.
    if (login.trim() === '' || password === '') return null
    const settings = await this.options.settings()
    if (settings.urls.length === 0 || !settings.searchBase || !settings.searchQuery) {
      throw unavailable('ldap.url, ldap.searchBase and ldap.searchQuery must be set')
    }
    const filter = await searchFilter(settings.searchQuery, login.trim())
    const client = await this.#connect(settings)
    try {
      const entries = await this.#search(client, settings, filter)
      if (entries.length !== 1) {
        if (entries.length > 1)
          logger.warn(
            { count: entries.length },
            'LDAP sign-in refused: the search query matched several entries'
          )
        await this.#bindAs(client, `cn=tern-no-such-user,${settings.searchBase}`, password)
        return null
      }
      const entry = entries[0]
      if (!(await this.#bindAs(client, entry.dn, password))) return null
      return this.#identityOf(entry, login.trim(), settings)
    } finally {
      await client.unbind().catch(() => {})
    }
  }

  /** A client bound as the service account (or anonymously), trying each URL until one answers. */
  async #connect(settings: LdapSettings): Promise<Client> {
    const { Client, ResultCodeError } = await ldapts()
    let lastError: unknown
    for (const url of settings.urls) {
      const client = new Client({ url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS })
      try {
        await client.bind(settings.bindDn, settings.bindDn ? settings.bindPassword : '')
        return client
      } catch (error) {
        await client.unbind().catch(() => {})
        if (error instanceof ResultCodeError) {
          const who = settings.bindDn
            ? `the service account ${settings.bindDn}`
            : 'the anonymous bind'
          throw unavailable(`${who} was refused by ${url}: ${error.message}`, error)
        }
        lastError = error
      }
    }
    throw unavailable(
      `no LDAP server answered (${settings.urls.join(', ')}): ${(lastError as Error)?.message}`,
      lastError
    )
  }

  async #search(client: Client, settings: LdapSettings, filter: string): Promise<Entry[]> {
    try {
      const { searchEntries } = await client.search(settings.searchBase, {
        scope: 'sub',
        filter,
        // memberOf is operational in OpenLDAP: asked for by name, next to every user attribute.
        attributes: ['*', settings.fieldNameMemberOf, settings.fieldNameEmail],
      })
      return searchEntries
    } catch (error) {
      throw unavailable(
        `the search in ${settings.searchBase} failed: ${(error as Error).message}`,
        error
      )
    }
  }

  /** Whether `password` binds as `dn`: false for refused credentials, unavailable when the server is gone. */
  async #bindAs(client: Client, dn: string, password: string): Promise<boolean> {
    const { ResultCodeError } = await ldapts()
    try {
      await client.bind(dn, password)
      return true
    } catch (error) {
      if (error instanceof ResultCodeError) return false
      throw unavailable(`the server stopped answering: ${(error as Error).message}`, error)
    }
  }

  #identityOf(entry: Entry, login: string, settings: LdapSettings): VerifiedIdentity {
    const email = attributeValues(entry, settings.fieldNameEmail)[0]?.trim() || null
    const groups = attributeValues(entry, settings.fieldNameMemberOf)
    return {
      id: entry.dn,
      username: login,
      email,
      isAdmin: settings.adminGroups ? groups.includes(settings.adminGroups) : undefined,
    }
  }
}
