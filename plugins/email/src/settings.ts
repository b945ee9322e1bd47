/**
 * The settings the e-mail channel reads before every send, from the core
 * configuration variables `smtp.*` and `general.appName`, and the plugin's
 * own category `emailNotifications` (the instance recipients of routed events).
 */
import type { ConfigCategoryDefinition } from '#extensions/config/types'

/** The effective SMTP settings at the moment of a send. */
export interface EmailSettings {
  /** `smtp.enabled`. */
  enabled: boolean
  /** `smtp.host`. */
  host: string
  /** `smtp.port`; 465 means implicit TLS, 0 means the SMTP default (587). */
  port: number
  /** `smtp.email`: the From address. */
  from: string
  /** `general.appName`: the From display name. */
  fromName: string
  /** `smtp.username`; AUTH is used only when it is not empty. */
  username: string
  /** `smtp.password`. */
  password: string
  /** `smtp.allowUnauthorizedCertificates`: accept self-signed or expired server certificates. */
  allowUnauthorizedCertificates: boolean
}

/** Reads the current settings; called on every send so admin changes apply at once. */
export type EmailSettingsSource = () => Promise<EmailSettings>

/** The configuration keys the settings come from. */
export const EMAIL_SETTINGS_KEYS = [
  'smtp.enabled',
  'smtp.host',
  'smtp.port',
  'smtp.email',
  'smtp.username',
  'smtp.password',
  'smtp.allowUnauthorizedCertificates',
  'general.appName',
] as const

/**
 * Builds the settings from a reader of effective config values (typed as the
 * config service returns them: booleans, numbers, strings).
 */
export function emailSettingsFrom(
  get: (key: (typeof EMAIL_SETTINGS_KEYS)[number]) => unknown
): EmailSettings {
  const text = (key: (typeof EMAIL_SETTINGS_KEYS)[number]) => String(get(key) ?? '').trim()
  return {
    enabled: get('smtp.enabled') === true,
    host: text('smtp.host'),
    port: Number(get('smtp.port')) || 0,
    from: text('smtp.email'),
    fromName: text('general.appName'),
    username: text('smtp.username'),
    password: String(get('smtp.password') ?? ''),
    allowUnauthorizedCertificates: get('smtp.allowUnauthorizedCertificates') === true,
  }
}

/** The key of the instance recipients of routed notifications. */
export const EMAIL_NOTIFICATION_RECIPIENTS_KEY = 'emailNotifications.recipients'

const ADDRESS = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/

/** The addresses of a recipients list: separated by commas, semicolons or new lines; blanks dropped. */
export function parseRecipientList(value: unknown): string[] {
  return String(value ?? '')
    .split(/[,;\n\r]+/)
    .map((address) => address.trim())
    .filter((address) => address.length > 0)
}

/** The first address of `value` that is not an e-mail address, as a message; nothing when all are. */
function recipientsError(value: unknown): string | undefined {
  const addresses = parseRecipientList(value)
  if (addresses.length > 50) return 'At most 50 addresses can receive instance notifications'
  const bad = addresses.find((address) => address.length > 254 || !ADDRESS.test(address))
  return bad === undefined ? undefined : `"${bad.slice(0, 80)}" is not an e-mail address`
}

/**
 * The category the manifest declares (admin panel "E-mail notifications"):
 * who receives the events an admin routes to the `email` channel
 * instance-wide (a user's own routes go to his account's address).
 */
export const emailNotificationsConfigCategory: ConfigCategoryDefinition = {
  id: 'emailNotifications',
  displayName: 'E-mail notifications',
  order: 108,
  variables: [
    {
      key: EMAIL_NOTIFICATION_RECIPIENTS_KEY,
      type: 'text',
      defaultValue: '',
      description:
        'Addresses that receive the events routed to the e-mail channel for the whole instance (admin panel: Notifications), separated by commas or new lines. Empty: such deliveries fail and are listed for admins.',
      validation: { validate: recipientsError },
    },
  ],
}
