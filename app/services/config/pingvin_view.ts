/**
 * What a Pingvin 1.x client sees of Tern's configuration (Tern's
 * additions never change what a Pingvin client sees): `GET /api/configs`
 * and `GET /api/configs/admin/<category>` cut to Pingvin 1.13's keys, in
 * Pingvin's order (`pingvin_catalogue.ts`). Tern's own clients opt in to
 * Tern's full view with `?ext=1` (the admin panel does).
 *
 * A Pingvin key Tern has no registered variable for is answered with
 * Pingvin's default and `allowEdit: false`, and a PATCH of it is a 400 that
 * says why. Such keys are READ-ONLY rather than stored-but-unused on purpose:
 * - a setting of a disabled plugin (`s3.*` without s3-storage, `ldap.*`
 *   without ldap, `oauth.github-*` without github): storing it would let an
 *   admin believe S3 or LDAP is on while nothing reads it; enabling the
 *   plugin (TERN_PLUGINS) registers the real, editable variables;
 * - a setting Tern does not have (`s3.useChecksum`, `oauth.discord-limitedUsers`,
 *   `oauth.oidc-role*`): a stored value would change nothing;
 * - the `cache` category: Tern takes Redis from the `REDIS_URL` environment
 *   variable, read before the database is reachable, so
 *   the category only reflects it (`redis-enabled`, `redis-url` masked);
 *   Tern has no response cache, so `ttl` and `maxItems` show Pingvin's defaults.
 */
import env from '#start/env'
import type { RegisteredConfigVariable } from '#extensions/config/types'
import type { ConfigRegistry } from '#extensions/config/registry'
import type { ConfigVariableResource, StoredConfigValue } from '#services/config/stored_value'
import {
  PINGVIN_CATEGORIES,
  PINGVIN_VARIABLES,
  type PingvinVariable,
} from '#services/config/pingvin_catalogue'

/** Stored rows by key. */
type Rows = Map<string, StoredConfigValue>

/** A Pingvin variable as a read-only registered one. */
function readOnly(
  variable: PingvinVariable,
  order: number,
  defaultValue = variable.defaultValue,
  obscured = variable.obscured
): RegisteredConfigVariable {
  const dot = variable.key.indexOf('.')
  return {
    key: variable.key,
    category: variable.key.slice(0, dot),
    name: variable.key.slice(dot + 1),
    type: variable.type,
    defaultValue,
    public: variable.public,
    obscured,
    allowEdit: false,
    order,
    validation: {},
    source: variable.plugin ?? 'pingvin',
  }
}

/**
 * The `cache` category, from the environment: `redis-enabled` = whether
 * REDIS_URL is set, `redis-url` masked (obscured: never answered in clear),
 * `ttl` and `maxItems` Pingvin's defaults (unused by Tern).
 */
export function cacheCategory(): ConfigVariableResource[] {
  const redisUrl = env.get('REDIS_URL') ?? ''
  const values: Record<string, string> = {
    'cache.redis-enabled': redisUrl ? 'true' : 'false',
    'cache.redis-url': redisUrl,
  }
  return PINGVIN_CATEGORIES.get('cache')!.map((variable, index) => {
    const isUrl = variable.key === 'cache.redis-url'
    // Tern has no default Redis server: the URL's default is empty, not Pingvin's container name.
    const registered = readOnly(
      variable,
      index,
      isUrl ? '' : variable.defaultValue,
      isUrl || variable.obscured
    )
    const value = values[variable.key]
    return {
      variable: registered,
      stored: value === undefined ? undefined : { value, updatedAt: null },
    }
  })
}

/** Whether `category` is answered by `pingvinCategory` (a Pingvin category). */
export function isPingvinCategory(category: string): boolean {
  return PINGVIN_CATEGORIES.has(category)
}

/**
 * A Pingvin category for admins: Pingvin's keys in Pingvin's order, each
 * from Tern's registered variable when there is one (masked as usual), else
 * Pingvin's default, read-only. `order` is the position in Pingvin's list.
 */
export function pingvinCategory(
  registry: ConfigRegistry,
  category: string,
  rows: Rows
): ConfigVariableResource[] {
  if (category === 'cache') return cacheCategory()
  return (PINGVIN_CATEGORIES.get(category) ?? []).map((pingvin, index) => {
    const variable = registry.find(pingvin.key)
    if (!variable) return { variable: readOnly(pingvin, index), stored: undefined }
    return { variable: { ...variable, order: index }, stored: rows.get(variable.key) }
  })
}

/** The keys of a Pingvin category that Tern has rows for (to read them in one query). */
export function registeredKeysOf(registry: ConfigRegistry, category: string): string[] {
  return (PINGVIN_CATEGORIES.get(category) ?? [])
    .filter((variable) => registry.find(variable.key))
    .map((variable) => variable.key)
}

/**
 * `GET /api/configs` for a Pingvin client: Pingvin's public keys. A key Tern
 * has is answered from it when Tern makes it public too (Tern keeps
 * `smtp.allowUnauthorizedCertificates` for admins); a key Tern lacks (a
 * disabled plugin's `ldap.enabled`) with Pingvin's default, because Pingvin's
 * client throws "Config variable <key> not found" for any public key missing.
 */
export function pingvinPublicVariables(
  registry: ConfigRegistry,
  rows: Rows
): ConfigVariableResource[] {
  return [...PINGVIN_VARIABLES.values()]
    .filter((pingvin) => pingvin.public)
    .flatMap((pingvin) => {
      const variable = registry.find(pingvin.key)
      if (!variable) return [{ variable: readOnly(pingvin, 0), stored: undefined }]
      return variable.public ? [{ variable, stored: rows.get(variable.key) }] : []
    })
}

/**
 * Why a Pingvin key Tern has no variable for cannot be changed, or undefined
 * when `key` is not one of Pingvin's (then it is simply unknown: 404).
 */
export function readOnlyReason(key: string): string | undefined {
  const pingvin = PINGVIN_VARIABLES.get(key)
  if (!pingvin) return undefined
  if (key.startsWith('cache.'))
    return 'Tern takes the cache from the REDIS_URL environment variable'
  if (pingvin.plugin)
    return `it belongs to the ${pingvin.plugin} plugin, which is not enabled (TERN_PLUGINS)`
  return 'Tern has no such setting'
}
