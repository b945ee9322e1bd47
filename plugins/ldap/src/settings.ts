/**
 * The `ldap` configuration category (admin panel "LDAP"), with Pingvin
 * Share's keys, order and defaults, and the typed settings the sign-in reads
 * from it at every attempt (an admin change applies at once).
 */
import { configValues } from '#extensions/config/config_values'
import type { ConfigCategoryDefinition, ConfigValue } from '#extensions/config/types'

/** Every key of the category, in admin-panel order. */
export const LDAP_CONFIG_KEYS = [
  'ldap.enabled',
  'ldap.url',
  'ldap.bindDn',
  'ldap.bindPassword',
  'ldap.searchBase',
  'ldap.searchQuery',
  'ldap.adminGroups',
  'ldap.fieldNameMemberOf',
  'ldap.fieldNameEmail',
] as const

/** The placeholder of `ldap.searchQuery` replaced by the (escaped) login name. */
export const USERNAME_PLACEHOLDER = '%username%'

/** The sign-in settings, as the verifier uses them. */
export interface LdapSettings {
  enabled: boolean
  /** One `ldap://` or `ldaps://` URL, or several separated by commas (tried in order). */
  urls: string[]
  /** DN of the service account; empty: search anonymously. */
  bindDn: string
  bindPassword: string
  /** Where users are searched (scope sub). */
  searchBase: string
  /** The filter, with `%username%` for the login name. */
  searchQuery: string
  /** The group DN whose members are admins (exact match); empty: the admin flag is not managed. */
  adminGroups: string
  /** Attribute listing the entry's groups (`memberOf`). */
  fieldNameMemberOf: string
  /** Attribute holding the e-mail address (`userPrincipalName`). */
  fieldNameEmail: string
}

/** Error when a value is not a list of ldap:// or ldaps:// URLs. */
function validateUrls(value: ConfigValue): string | undefined {
  for (const url of urlsOf(String(value))) {
    try {
      const protocol = new URL(url).protocol
      if (protocol === 'ldap:' || protocol === 'ldaps:') continue
    } catch {}
    return 'The LDAP URL must be ldap://host[:port] or ldaps://host[:port] (several separated by commas)'
  }
  return undefined
}

/** Error when the filter lacks the placeholder or its parentheses do not balance. */
function validateSearchQuery(value: ConfigValue): string | undefined {
  const query = String(value)
  if (query === '') return undefined
  if (!query.includes(USERNAME_PLACEHOLDER))
    return `The LDAP search query must contain ${USERNAME_PLACEHOLDER}`
  let depth = 0
  for (const char of query.replace(/\\./g, '')) {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0
    if (depth < 0) break
  }
  return depth === 0 && query.startsWith('(')
    ? undefined
    : 'The LDAP search query must be a filter in parentheses, e.g. (uid=%username%)'
}

/** The URLs of `ldap.url` (comma separated, blanks dropped). */
export function urlsOf(value: string): string[] {
  return value
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean)
}

/** The category the manifest declares (registered by the plugin host with source `ldap`). */
export const ldapConfigCategory: ConfigCategoryDefinition = {
  id: 'ldap',
  displayName: 'LDAP',
  // Right after the core "Social Login" (50), where Pingvin Share lists it (before Legal, 60).
  order: 55,
  variables: [
    { key: 'ldap.enabled', type: 'boolean', defaultValue: 'false', public: true },
    { key: 'ldap.url', type: 'string', defaultValue: '', validation: { validate: validateUrls } },
    { key: 'ldap.bindDn', type: 'string', defaultValue: '' },
    { key: 'ldap.bindPassword', type: 'string', defaultValue: '', obscured: true },
    { key: 'ldap.searchBase', type: 'string', defaultValue: '' },
    {
      key: 'ldap.searchQuery',
      type: 'string',
      // Pingvin Share's default: none (the sign-in says it must be set, e.g. `(uid=%username%)`).
      defaultValue: '',
      validation: { validate: validateSearchQuery },
    },
    { key: 'ldap.adminGroups', type: 'string', defaultValue: '' },
    { key: 'ldap.fieldNameMemberOf', type: 'string', defaultValue: 'memberOf' },
    { key: 'ldap.fieldNameEmail', type: 'string', defaultValue: 'userPrincipalName' },
  ],
}

/** The current settings (one read of every key). */
export async function readLdapSettings(): Promise<LdapSettings> {
  const values = await configValues.getMany([...LDAP_CONFIG_KEYS])
  const text = (key: (typeof LDAP_CONFIG_KEYS)[number]) => String(values[key] ?? '').trim()
  return {
    enabled: values['ldap.enabled'] === true,
    urls: urlsOf(text('ldap.url')),
    bindDn: text('ldap.bindDn'),
    bindPassword: String(values['ldap.bindPassword'] ?? ''),
    searchBase: text('ldap.searchBase'),
    searchQuery: text('ldap.searchQuery'),
    adminGroups: text('ldap.adminGroups'),
    fieldNameMemberOf: text('ldap.fieldNameMemberOf') || 'memberOf',
    fieldNameEmail: text('ldap.fieldNameEmail') || 'userPrincipalName',
  }
}
