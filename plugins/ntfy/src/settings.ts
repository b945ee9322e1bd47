/**
 * The `ntfy` configuration category (admin panel "ntfy") and the typed
 * settings a publication is made with. Read through `configValues` at each
 * attempt, so an admin change applies to the next delivery (its retries
 * included) without a restart, on every instance.
 */
import { configValues, type ConfigValues } from '#extensions/config/config_values'
import type { ConfigCategoryDefinition, ConfigValue } from '#extensions/config/types'

/** Every key of the category, in admin-panel order. */
export const NTFY_CONFIG_KEYS = [
  'ntfy.server',
  'ntfy.topic',
  'ntfy.token',
  'ntfy.priority',
] as const

/** One key of the category. */
export type NtfyConfigKey = (typeof NTFY_CONFIG_KEYS)[number]

/** The settings of one publication. */
export interface NtfySettings {
  /** `ntfy.server`: the server's base URL without a trailing slash (`https://ntfy.sh`). */
  server: string
  /** `ntfy.topic`: the topic messages are published to; empty = not configured. */
  topic: string
  /** `ntfy.token`: an access token sent as `Authorization: Bearer`; empty = anonymous. */
  token: string
  /** `ntfy.priority`: 1 (min) to 5 (max); 3 is ntfy's default. */
  priority: number
}

/** Reads the current settings. */
export type NtfySettingsSource = () => Promise<NtfySettings>

/**
 * ntfy's own topic rule: 1 to 64 letters, digits, `-` or `_`. A topic is
 * public to whoever knows its name on a server without access control, so
 * pick one that is hard to guess, or use a token.
 */
export const TOPIC_PATTERN = /^[-_A-Za-z0-9]{1,64}$/

/**
 * Why `value` cannot be the server URL, or null when it can: an absolute
 * `http://` or `https://` URL with a host, without credentials, query or
 * fragment (a path is allowed: a server behind a reverse proxy at `/ntfy`).
 */
export function checkServerUrl(value: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    return 'not a valid URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'only http:// and https:// URLs are allowed'
  if (!parsed.hostname) return 'the URL has no host'
  if (parsed.username || parsed.password)
    return 'credentials in the URL are not allowed: use the access token'
  if (parsed.search || parsed.hash) return 'the URL must not have a query or a fragment'
  return null
}

function serverError(value: ConfigValue): string | undefined {
  const problem = checkServerUrl(String(value).trim())
  return problem
    ? `The ntfy server URL is refused (${problem}): ${String(value).slice(0, 200)}`
    : undefined
}

function topicError(value: ConfigValue): string | undefined {
  const topic = String(value).trim()
  if (topic === '' || TOPIC_PATTERN.test(topic)) return undefined
  return 'The ntfy topic may only hold 1 to 64 letters, digits, "-" and "_"'
}

/** The category the manifest declares (registered by the plugin host with source `ntfy`). */
export const ntfyConfigCategory: ConfigCategoryDefinition = {
  id: 'ntfy',
  displayName: 'ntfy',
  order: 115,
  variables: [
    {
      key: 'ntfy.server',
      type: 'string',
      defaultValue: 'https://ntfy.sh',
      description: 'The ntfy server messages are published to (https://ntfy.sh or your own).',
      validation: { validate: serverError },
    },
    {
      key: 'ntfy.topic',
      type: 'string',
      defaultValue: '',
      description:
        'The topic to publish to. Empty: nothing can be delivered. Anyone who knows a topic on a public server can read it: choose a name that is hard to guess, or protect it with an access token.',
      validation: { validate: topicError },
    },
    {
      key: 'ntfy.token',
      type: 'string',
      defaultValue: '',
      obscured: true,
      description:
        'Access token of a user allowed to publish to the topic (sent as Authorization: Bearer). Empty: anonymous.',
    },
    {
      key: 'ntfy.priority',
      type: 'number',
      defaultValue: '3',
      description: 'Message priority, 1 (min) to 5 (max); 3 is the default of ntfy.',
      validation: { min: 1, max: 5 },
    },
  ],
}

/** Builds the settings from effective values of the category's keys. */
export function ntfySettingsFrom(values: Record<NtfyConfigKey, ConfigValue>): NtfySettings {
  const priority = Math.trunc(Number(values['ntfy.priority']))
  return {
    server: String(values['ntfy.server'] ?? '')
      .trim()
      .replace(/\/+$/, ''),
    topic: String(values['ntfy.topic'] ?? '').trim(),
    token: String(values['ntfy.token'] ?? ''),
    priority: priority >= 1 && priority <= 5 ? priority : 3,
  }
}

/** Reads the current settings (one query). */
export async function readNtfySettings(values: ConfigValues = configValues): Promise<NtfySettings> {
  return ntfySettingsFrom(await values.getMany(NTFY_CONFIG_KEYS))
}
