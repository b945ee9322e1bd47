/**
 * Pingvin Share's configuration (its `Config` table) mapped onto Tern's
 * configuration variables (docs/design/pingvin_import.md §7).
 *
 * ```ts
 * export async function importPingvinConfig(
 *   rows: readonly PingvinConfigRow[],   // SELECT * FROM Config, as better-sqlite3 returns it
 *   options: {
 *     dryRun: boolean                     // true: decide everything, write nothing
 *     trx?: TransactionClientContract     // write (and read) inside the caller's transaction
 *     registry?: ConfigRegistry           // the variables Tern knows (default: this process's registry)
 *   }
 * ): Promise<ConfigImportResult>
 *
 * ConfigImportResult = {
 *   imported:  { key, ternKey, warning?, derived? }[]   // written, or would be in a dry run
 *   skipped:   { key, kind, reason }[]                  // a value Pingvin had that Tern did not take: list each one
 *   unchanged: { key, kind: 'default' | 'already' }[]   // nothing to carry over: count them
 * }
 * ```
 *
 * `key` is always Pingvin's `<category>.<name>`; `ternKey` the variable
 * written. Reports never hold values: many are secrets.
 *
 * Rules:
 * - A row whose value is NULL (or `''`) had Pingvin's default in effect:
 *   nothing is written and Tern's own default applies (`unchanged`,
 *   `default`), e.g. `general.appName` stays "Tern".
 * - Every Pingvin 1.x key has a rule in `PINGVIN_CONFIG_RULES`: carried to
 *   the Tern variable of the same name, `no-equivalent` (Tern has no such
 *   setting: the reason says what to do instead), or `dropped` on purpose
 *   (`internal.jwtSecret`). Any other key is `unknown` (a fork's or an old
 *   version's).
 * - A carried key whose Tern variable is not registered in this process
 *   (its plugin is not enabled, or this Tern has no such category yet) is
 *   `unavailable`; enabling the plugin and running the import again with
 *   `--merge` brings it over.
 * - The Pingvin string is converted to the Tern variable's type (see
 *   `pingvinValueFor`: booleans, numbers, byte sizes, timespans such as
 *   `"3 months"` or the bare hours of old sources), then checked with the
 *   same `checkValue` that `PATCH /api/configs/admin` applies: a refused
 *   value is `invalid` with that message and is never stored. A variable
 *   admins cannot edit is refused too, as that route does.
 * - Secrets (`smtp.password`, `oauth.*-clientSecret`, `s3.secret`,
 *   `ldap.bindPassword`) are carried like any value: both store them in
 *   plain text.
 * - A Tern variable that already holds a value is never overwritten: the
 *   same value is `unchanged`/`already` (a re-run), a different one is a
 *   `collision` and Tern's value is kept. This holds with and without
 *   `--merge`.
 * - When any `s3.*` setting is carried over and Tern's `s3.forcePathStyle` is
 *   unset, it is set to true (`derived`): Pingvin always sent path-style
 *   requests.
 * - An e-mail template that uses a placeholder Tern does not fill (Pingvin's
 *   `{creatorEmail}`) is imported with a `warning`.
 *
 * Not done here: `internal.setupFinished` (set by the importer when it
 * imports an admin user) and anything about users, shares or files.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import ConfigVariable from '#models/config_variable'
import { configRegistry, type ConfigRegistry } from '#extensions/config/registry'
import type { ConfigValue, RegisteredConfigVariable } from '#extensions/config/types'
import { checkValue } from '#extensions/config/values'
import { registerCoreConfigCategories } from '#services/config/definitions'

/**
 * One row of Pingvin's `Config` table (1.x: PK `(name, category)`;
 * `value` NULL = the default in effect). Only `name`, `category` and
 * `value` are read; the other columns are accepted and ignored.
 */
export interface PingvinConfigRow {
  name: string
  category: string
  /** The admin's value as text (better-sqlite3 may hand back a number for a numeric-looking TEXT cell). */
  value: string | number | null
  defaultValue?: string | null
  type?: string
  [column: string]: unknown
}

/** Why a Pingvin setting with a value was not written. */
export type ConfigSkipKind =
  /** Not carried over on purpose (`internal.jwtSecret`). */
  | 'dropped'
  /** Tern has no such setting; the reason says what to do instead. */
  | 'no-equivalent'
  /** Tern has the setting, but not in this instance (plugin disabled, category not there yet). */
  | 'unavailable'
  /** Not a Pingvin 1.x setting (a fork's, or one an old version removed). */
  | 'unknown'
  /** Tern's validation refused the value (the reason is its message). */
  | 'invalid'
  /** Tern already holds a different value for the variable: kept. */
  | 'collision'

/** A setting written (or, in a dry run, that would be). */
export interface ImportedConfigKey {
  /** Pingvin's key, or Tern's for a derived value. */
  key: string
  /** The Tern variable written. */
  ternKey: string
  /** Something the administrator should look at (the value was imported). */
  warning?: string
  /** Not a Pingvin row: a Tern value implied by the imported ones (`s3.forcePathStyle`). */
  derived?: boolean
}

/** A Pingvin setting with a value that was not written. */
export interface SkippedConfigKey {
  key: string
  kind: ConfigSkipKind
  reason: string
}

/** A Pingvin setting with nothing to carry over. */
export interface UnchangedConfigKey {
  key: string
  /** `default`: unset in Pingvin; `already`: Tern holds the same value (an earlier import). */
  kind: 'default' | 'already'
}

/** Outcome of `importPingvinConfig`. */
export interface ConfigImportResult {
  imported: ImportedConfigKey[]
  skipped: SkippedConfigKey[]
  unchanged: UnchangedConfigKey[]
}

/** Options of `importPingvinConfig`. */
export interface ConfigImportOptions {
  /** Decide and report everything, write nothing. */
  dryRun: boolean
  /** The caller's transaction: reads and writes go through it (default: a transaction of its own). */
  trx?: TransactionClientContract
  /** The variables Tern knows (default: this process's registry, core categories included). */
  registry?: ConfigRegistry
}

/** How one Pingvin key is treated. */
export type PingvinConfigRule =
  /** Carried to the Tern variable `ternKey`; `plugin` is the plugin that defines it, when not core. */
  | { action: 'carry'; ternKey: string; plugin?: string }
  | { action: 'no-equivalent'; reason: string | ((value: string) => string) }
  | { action: 'dropped'; reason: string }

const carry = (key: string, plugin?: string): PingvinConfigRule => ({
  action: 'carry',
  ternKey: key,
  plugin,
})
const noEquivalent = (
  reason: Extract<PingvinConfigRule, { action: 'no-equivalent' }>['reason']
): PingvinConfigRule => ({
  action: 'no-equivalent',
  reason,
})

const OIDC_ROLES =
  'Tern has no equivalent: OpenID Connect roles are not mapped to access or admin rights (every user the provider signs in may use Tern; admins are chosen in Tern)'

/**
 * Every setting of Pingvin Share 1.x (`backend/prisma/seed/config.seed.ts`,
 * plus the `legal`, `cache` and `s3.useChecksum` settings of 1.13) and what
 * becomes of it. Keys are `<category>.<name>`.
 */
export const PINGVIN_CONFIG_RULES: Readonly<Record<string, PingvinConfigRule>> = {
  'internal.jwtSecret': {
    action: 'dropped',
    reason: 'not carried over: Tern signs sessions with its own key, so every user signs in again',
  },

  'general.appName': carry('general.appName'),
  'general.appUrl': carry('general.appUrl'),
  'general.secureCookies': carry('general.secureCookies'),
  'general.showHomePage': carry('general.showHomePage'),
  'general.sessionDuration': carry('general.sessionDuration'),

  'share.allowRegistration': carry('share.allowRegistration'),
  'share.allowUnauthenticatedShares': carry('share.allowUnauthenticatedShares'),
  'share.maxExpiration': carry('share.maxExpiration'),
  'share.shareIdLength': carry('share.shareIdLength'),
  'share.maxSize': carry('share.maxSize'),
  'share.zipCompressionLevel': carry('share.zipCompressionLevel'),
  'share.chunkSize': carry('share.chunkSize'),
  'share.autoOpenShareModal': carry('share.autoOpenShareModal'),

  'email.enableShareEmailRecipients': carry('email.enableShareEmailRecipients'),
  'email.shareRecipientsSubject': carry('email.shareRecipientsSubject'),
  'email.shareRecipientsMessage': carry('email.shareRecipientsMessage'),
  'email.reverseShareSubject': carry('email.reverseShareSubject'),
  'email.reverseShareMessage': carry('email.reverseShareMessage'),
  'email.resetPasswordSubject': carry('email.resetPasswordSubject'),
  'email.resetPasswordMessage': carry('email.resetPasswordMessage'),
  'email.inviteSubject': carry('email.inviteSubject'),
  'email.inviteMessage': carry('email.inviteMessage'),

  'smtp.enabled': carry('smtp.enabled'),
  'smtp.allowUnauthorizedCertificates': carry('smtp.allowUnauthorizedCertificates'),
  'smtp.host': carry('smtp.host'),
  'smtp.port': carry('smtp.port'),
  'smtp.email': carry('smtp.email'),
  'smtp.username': carry('smtp.username'),
  'smtp.password': carry('smtp.password'),

  'oauth.allowRegistration': carry('oauth.allowRegistration'),
  'oauth.ignoreTotp': carry('oauth.ignoreTotp'),
  'oauth.disablePassword': carry('oauth.disablePassword'),
  'oauth.github-enabled': carry('oauth.github-enabled', 'github'),
  'oauth.github-clientId': carry('oauth.github-clientId', 'github'),
  'oauth.github-clientSecret': carry('oauth.github-clientSecret', 'github'),
  'oauth.google-enabled': carry('oauth.google-enabled', 'google'),
  'oauth.google-clientId': carry('oauth.google-clientId', 'google'),
  'oauth.google-clientSecret': carry('oauth.google-clientSecret', 'google'),
  'oauth.microsoft-enabled': carry('oauth.microsoft-enabled', 'microsoft'),
  'oauth.microsoft-tenant': carry('oauth.microsoft-tenant', 'microsoft'),
  'oauth.microsoft-clientId': carry('oauth.microsoft-clientId', 'microsoft'),
  'oauth.microsoft-clientSecret': carry('oauth.microsoft-clientSecret', 'microsoft'),
  'oauth.discord-enabled': carry('oauth.discord-enabled', 'discord'),
  'oauth.discord-limitedGuild': carry('oauth.discord-limitedGuild', 'discord'),
  'oauth.discord-limitedUsers': noEquivalent(
    'Tern has no equivalent: it can limit Discord sign-in to the members of one server (oauth.discord-limitedGuild), not to a list of users'
  ),
  'oauth.discord-clientId': carry('oauth.discord-clientId', 'discord'),
  'oauth.discord-clientSecret': carry('oauth.discord-clientSecret', 'discord'),
  'oauth.oidc-enabled': carry('oauth.oidc-enabled', 'oidc'),
  'oauth.oidc-discoveryUri': carry('oauth.oidc-discoveryUri', 'oidc'),
  'oauth.oidc-signOut': carry('oauth.oidc-signOut', 'oidc'),
  'oauth.oidc-scope': carry('oauth.oidc-scope', 'oidc'),
  'oauth.oidc-usernameClaim': carry('oauth.oidc-usernameClaim', 'oidc'),
  'oauth.oidc-rolePath': noEquivalent(OIDC_ROLES),
  'oauth.oidc-roleGeneralAccess': noEquivalent(OIDC_ROLES),
  'oauth.oidc-roleAdminAccess': noEquivalent(OIDC_ROLES),
  'oauth.oidc-clientId': carry('oauth.oidc-clientId', 'oidc'),
  'oauth.oidc-clientSecret': carry('oauth.oidc-clientSecret', 'oidc'),

  'ldap.enabled': carry('ldap.enabled', 'ldap'),
  'ldap.url': carry('ldap.url', 'ldap'),
  'ldap.bindDn': carry('ldap.bindDn', 'ldap'),
  'ldap.bindPassword': carry('ldap.bindPassword', 'ldap'),
  'ldap.searchBase': carry('ldap.searchBase', 'ldap'),
  'ldap.searchQuery': carry('ldap.searchQuery', 'ldap'),
  'ldap.adminGroups': carry('ldap.adminGroups', 'ldap'),
  'ldap.fieldNameMemberOf': carry('ldap.fieldNameMemberOf', 'ldap'),
  'ldap.fieldNameEmail': carry('ldap.fieldNameEmail', 'ldap'),

  's3.enabled': carry('s3.enabled', 's3-storage'),
  's3.endpoint': carry('s3.endpoint', 's3-storage'),
  's3.region': carry('s3.region', 's3-storage'),
  's3.bucketName': carry('s3.bucketName', 's3-storage'),
  's3.bucketPath': carry('s3.bucketPath', 's3-storage'),
  's3.key': carry('s3.key', 's3-storage'),
  's3.secret': carry('s3.secret', 's3-storage'),
  's3.useChecksum': noEquivalent(
    'Tern has no such setting: its S3 client keeps the SDK defaults for checksums'
  ),

  'legal.enabled': carry('legal.enabled'),
  'legal.imprintText': carry('legal.imprintText'),
  'legal.imprintUrl': carry('legal.imprintUrl'),
  'legal.privacyPolicyText': carry('legal.privacyPolicyText'),
  'legal.privacyPolicyUrl': carry('legal.privacyPolicyUrl'),

  'cache.redis-enabled': noEquivalent((value) =>
    value.trim() === 'true'
      ? 'Tern reads Redis from the environment: set REDIS_URL to the address of cache.redis-url'
      : 'Tern uses Redis only when REDIS_URL is set: nothing to do'
  ),
  'cache.redis-url': noEquivalent(
    'Tern reads Redis from the environment: set REDIS_URL to this address instead'
  ),
  'cache.ttl': noEquivalent('Tern has no such setting'),
  'cache.maxItems': noEquivalent('Tern has no such setting'),
}

/**
 * The placeholders Tern fills in each e-mail template, subject and message
 * alike (`MailService`: the template's own, plus `appName` and `appUrl`).
 */
const TEMPLATE_PLACEHOLDERS: Readonly<Record<string, readonly string[]>> = {
  shareRecipients: ['creator', 'shareUrl', 'desc', 'expires'],
  reverseShare: ['shareUrl'],
  resetPassword: ['url'],
  invite: ['url', 'email', 'password'],
}

/**
 * A warning when an `email.*` template uses placeholders Tern does not fill
 * (they would reach the recipient as written), else undefined.
 */
export function templateWarning(ternKey: string, text: string): string | undefined {
  const match =
    /^email\.(shareRecipients|reverseShare|resetPassword|invite)(Subject|Message)$/.exec(ternKey)
  if (!match) return undefined
  const known = new Set([...TEMPLATE_PLACEHOLDERS[match[1]], 'appName', 'appUrl'])
  const unknown = [
    ...new Set([...text.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)].map((found) => found[1])),
  ].filter((name) => !known.has(name))
  if (unknown.length === 0) return undefined
  const list = unknown.map((name) => `{${name}}`).join(', ')
  return `uses ${list}, which Tern does not fill: ${unknown.length === 1 ? 'it stays' : 'they stay'} as written in the mail (Tern fills ${[...known].map((name) => `{${name}}`).join(', ')})`
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
}

/** Outcome of `pingvinValueFor`. */
export type PingvinValueConversion =
  { ok: true; value: ConfigValue } | { ok: false; message: string }

/**
 * Pingvin keeps every value as text; this gives the value as the Tern
 * variable's type expects it from JSON (what `checkValue` takes):
 * - boolean: `"true"` / `"false"`;
 * - number: a decimal number;
 * - filesize: a byte count (`"1000000000"`), or a size with a unit
 *   (`"10 MB"`, `"1 GiB"`), rounded to whole bytes;
 * - timespan: the text (`"3 months"`, `"720 hours"`); a bare whole number is
 *   hours, as sources older than 1.7 stored `sessionDuration` and
 *   `maxExpiration` (Pingvin's migration `timespan_type_config_variables`
 *   appends `" hours"` the same way);
 * - string, text: unchanged.
 * The message never repeats the value (it may be a secret).
 */
export function pingvinValueFor(
  variable: Pick<RegisteredConfigVariable, 'type'>,
  text: string
): PingvinValueConversion {
  const trimmed = text.trim()
  switch (variable.type) {
    case 'boolean':
      if (trimmed === 'true' || trimmed === 'false') return { ok: true, value: trimmed === 'true' }
      return { ok: false, message: 'Pingvin value is not a boolean (true or false)' }
    case 'number':
      if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return { ok: true, value: Number(trimmed) }
      return { ok: false, message: 'Pingvin value is not a number' }
    case 'filesize': {
      const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i.exec(trimmed)
      const factor = match ? SIZE_UNITS[(match[2] ?? 'b').toLowerCase()] : undefined
      if (!match || factor === undefined)
        return { ok: false, message: 'Pingvin value is not a size in bytes' }
      return { ok: true, value: Math.round(Number(match[1]) * factor) }
    }
    case 'timespan':
      return { ok: true, value: /^\d+$/.test(trimmed) ? `${trimmed} hours` : trimmed }
    default:
      return { ok: true, value: text }
  }
}

/** What to tell the administrator when `ternKey` is not registered in this process. */
function unavailableReason(ternKey: string, plugin: string | undefined): string {
  if (plugin) {
    return `Tern's setting ${ternKey} comes from the ${plugin} plugin, which is not enabled: add ${plugin} to TERN_PLUGINS, restart Tern and run the import again with --merge`
  }
  return `this Tern has no setting ${ternKey}: run the import again with --merge after an update that adds it`
}

/** A candidate write: the Tern variable and the string to store. */
interface PlannedWrite {
  entry: ImportedConfigKey
  stored: string
}

/**
 * Imports Pingvin's configuration rows (see the module comment for every
 * rule). All writes happen in one transaction: the caller's `trx`, or one of
 * its own. Nothing is written when `dryRun` is set; the result is the same.
 */
export async function importPingvinConfig(
  rows: readonly PingvinConfigRow[],
  options: ConfigImportOptions
): Promise<ConfigImportResult> {
  let registry = options.registry
  if (!registry) {
    registerCoreConfigCategories()
    registry = configRegistry
  }
  const result: ConfigImportResult = { imported: [], skipped: [], unchanged: [] }
  const planned: PlannedWrite[] = []
  const skip = (key: string, kind: ConfigSkipKind, reason: string) =>
    result.skipped.push({ key, kind, reason })

  const sorted = [...rows].sort((a, b) => keyOf(a).localeCompare(keyOf(b)))
  for (const row of sorted) {
    const key = keyOf(row)
    const text = row.value === null || row.value === undefined ? '' : String(row.value)
    if (text === '') {
      result.unchanged.push({ key, kind: 'default' })
      continue
    }
    const rule = PINGVIN_CONFIG_RULES[key]
    if (!rule) {
      skip(key, 'unknown', 'unknown key: not a setting of Pingvin Share 1.x')
      continue
    }
    if (rule.action === 'dropped') {
      skip(key, 'dropped', rule.reason)
      continue
    }
    if (rule.action === 'no-equivalent') {
      skip(
        key,
        'no-equivalent',
        typeof rule.reason === 'function' ? rule.reason(text) : rule.reason
      )
      continue
    }
    const variable = registry.find(rule.ternKey)
    if (!variable || registry.category(variable.category)?.hidden) {
      skip(key, 'unavailable', unavailableReason(rule.ternKey, rule.plugin))
      continue
    }
    if (!variable.allowEdit) {
      skip(key, 'invalid', `Config variable ${variable.key} cannot be edited`)
      continue
    }
    const converted = pingvinValueFor(variable, text)
    if (!converted.ok) {
      skip(key, 'invalid', converted.message)
      continue
    }
    const checked = checkValue(variable, converted.value)
    if (!checked.ok) {
      skip(key, 'invalid', checked.message)
      continue
    }
    const warning =
      variable.type === 'string' || variable.type === 'text'
        ? templateWarning(variable.key, text)
        : undefined
    planned.push({
      entry: { key, ternKey: variable.key, ...(warning ? { warning } : {}) },
      stored: checked.stored,
    })
  }

  // Pingvin always addressed its bucket path-style (s3.service.ts: forcePathStyle: true).
  const pathStyle = registry.find('s3.forcePathStyle')
  if (pathStyle && planned.some((write) => write.entry.ternKey.startsWith('s3.'))) {
    planned.push({
      entry: { key: pathStyle.key, ternKey: pathStyle.key, derived: true },
      stored: 'true',
    })
  }

  /** Compares with Tern's stored values (through `client`) and writes through `trx` (none in a dry run). */
  const apply = async (client: QueryClientContract, trx?: TransactionClientContract) => {
    const keys = planned.map((item) => item.entry.ternKey)
    const existing = new Map<string, ConfigVariable>()
    if (keys.length > 0) {
      for (const row of await ConfigVariable.query({ client }).whereIn('key', keys))
        existing.set(row.key, row)
    }
    for (const item of planned) {
      const row = existing.get(item.entry.ternKey)
      const current = row?.value ?? null
      if (current !== null && current !== '') {
        if (current === item.stored) {
          result.unchanged.push({ key: item.entry.key, kind: 'already' })
        } else {
          skip(
            item.entry.key,
            'collision',
            `Tern already has its own value for ${item.entry.ternKey}: kept (an import never overwrites a setting)`
          )
        }
        continue
      }
      result.imported.push(item.entry)
      if (!trx) continue
      if (row) {
        row.value = item.stored
        await row.useTransaction(trx).save()
      } else {
        await ConfigVariable.create(
          { key: item.entry.ternKey, value: item.stored },
          { client: trx }
        )
      }
    }
  }

  if (options.dryRun) await apply(options.trx ?? db.connection())
  else if (options.trx) await apply(options.trx, options.trx)
  else await db.transaction((trx) => apply(trx, trx))
  return result
}

/** `<category>.<name>` of a row. */
function keyOf(row: PingvinConfigRow): string {
  return `${row.category}.${row.name}`
}
