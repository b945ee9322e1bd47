/**
 * The `webhook` configuration category (admin panel "Webhooks") and the typed
 * settings a delivery is made with. Values are read through `configValues`
 * when a routed event is fanned out to the URLs (and at each attempt), so an
 * admin change applies to the next event without a restart.
 */
import { configValues, type ConfigValues } from '#extensions/config/config_values'
import type { ConfigCategoryDefinition, ConfigValue } from '#extensions/config/types'
import { parseEventFilter, WEBHOOK_EVENTS } from './events.js'

/** Every key of the category, in admin-panel order. */
export const WEBHOOK_CONFIG_KEYS = [
  'webhook.enabled',
  'webhook.urls',
  'webhook.secret',
  'webhook.events',
  'webhook.timeout',
  'webhook.maxAttempts',
] as const

/** One key of the category. */
export type WebhookConfigKey = (typeof WEBHOOK_CONFIG_KEYS)[number]

/** The settings of one dispatch. */
export interface WebhookSettings {
  /** `webhook.enabled`: nothing is sent while off. */
  enabled: boolean
  /** `webhook.urls`: the non-empty lines, trimmed (not validated yet: see `checkWebhookUrl`). */
  urls: string[]
  /** `webhook.secret`: the HMAC key; empty = requests are not signed. */
  secret: string
  /** `webhook.events`: webhook event names to send; empty = every event. */
  events: string[]
  /** `webhook.timeout` in milliseconds: the limit of one attempt (connect to end of response headers). */
  timeoutMs: number
  /** `webhook.maxAttempts`: attempts per URL and event, the first one included. */
  maxAttempts: number
}

/** Reads the current settings; called for every dispatched event. */
export type WebhookSettingsSource = () => Promise<WebhookSettings>

/** The non-empty lines of a `webhook.urls` value, trimmed. */
export function parseUrlList(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/**
 * Why `url` cannot receive webhooks, or null when it can: it must be an
 * absolute `http://` or `https://` URL with a host and without credentials.
 */
export function checkWebhookUrl(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'not a valid URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'only http:// and https:// URLs are allowed'
  if (!parsed.hostname) return 'the URL has no host'
  if (parsed.username || parsed.password) return 'credentials in the URL are not allowed'
  return null
}

function urlsError(value: ConfigValue): string | undefined {
  for (const [index, url] of parseUrlList(String(value)).entries()) {
    const problem = checkWebhookUrl(url)
    if (problem) return `Webhook URL on line ${index + 1} is refused (${problem}): ${url}`
  }
  return undefined
}

const EVENT_NAME = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/
const KNOWN_EVENTS: readonly string[] = WEBHOOK_EVENTS
const KNOWN_DOMAINS = new Set(KNOWN_EVENTS.map((name) => name.split('.')[0]))

/** A typo in a known domain (`share.complete`) is refused; names of other domains are kept for notifications the core sends itself. */
function eventsError(value: ConfigValue): string | undefined {
  for (const name of parseEventFilter(String(value))) {
    const known = KNOWN_EVENTS.includes(name)
    if (!known && (!EVENT_NAME.test(name) || KNOWN_DOMAINS.has(name.split('.')[0]))) {
      return `Unknown webhook event "${name}". Known events: ${KNOWN_EVENTS.join(', ')}`
    }
  }
  return undefined
}

/** The category the manifest declares (registered by the plugin host with source `webhook`). */
export const webhookConfigCategory: ConfigCategoryDefinition = {
  id: 'webhook',
  displayName: 'Webhooks',
  order: 110,
  variables: [
    {
      key: 'webhook.enabled',
      type: 'boolean',
      defaultValue: 'false',
      description:
        'Send the events routed to the webhook channel (admin panel: Notifications) as JSON POST requests to the URLs below. Off: they are dropped.',
    },
    {
      key: 'webhook.urls',
      type: 'text',
      defaultValue: '',
      description:
        'The receiving URLs, one per line (http:// or https://). Every event goes to every URL.',
      validation: { validate: urlsError },
    },
    {
      key: 'webhook.secret',
      type: 'string',
      defaultValue: '',
      obscured: true,
      description:
        'Key of the HMAC-SHA256 signature sent in X-Tern-Signature. Empty: requests are not signed.',
    },
    {
      key: 'webhook.events',
      type: 'string',
      defaultValue: '',
      description: `Of the events routed to webhooks, those to send, comma separated (empty: all). Events: ${KNOWN_EVENTS.join(', ')}.`,
      validation: { validate: eventsError },
    },
    {
      key: 'webhook.timeout',
      type: 'number',
      defaultValue: '10',
      description: 'Seconds one attempt may take before it counts as failed.',
      validation: { min: 1, max: 120 },
    },
    {
      key: 'webhook.maxAttempts',
      type: 'number',
      defaultValue: '5',
      description:
        'Attempts per URL and event, the first one included. Network errors, timeouts, 5xx and 429 answers are retried with exponential back-off.',
      validation: { min: 1, max: 10 },
    },
  ],
}

/** Builds the settings from effective values of the category's keys. */
export function webhookSettingsFrom(
  values: Record<WebhookConfigKey, ConfigValue>
): WebhookSettings {
  return {
    enabled: values['webhook.enabled'] === true,
    urls: parseUrlList(String(values['webhook.urls'] ?? '')),
    secret: String(values['webhook.secret'] ?? ''),
    events: parseEventFilter(String(values['webhook.events'] ?? '')),
    timeoutMs: Math.max(1, Number(values['webhook.timeout']) || 10) * 1000,
    maxAttempts: Math.max(1, Math.trunc(Number(values['webhook.maxAttempts']) || 1)),
  }
}

/** Reads the current settings (one query). */
export async function readWebhookSettings(
  values: ConfigValues = configValues
): Promise<WebhookSettings> {
  return webhookSettingsFrom(await values.getMany(WEBHOOK_CONFIG_KEYS))
}
