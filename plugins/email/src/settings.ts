/**
 * The settings the e-mail channel reads before every send, from the core
 * configuration variables `smtp.*` and `general.appName`.
 */

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
export function emailSettingsFrom(get: (key: (typeof EMAIL_SETTINGS_KEYS)[number]) => unknown): EmailSettings {
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
