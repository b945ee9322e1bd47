/**
 * The core configuration variables of Tern: categories
 * general, share, email, smtp, oauth and legal, plus the hidden `internal` category
 * (state the server keeps, not settings an admin edits). Plugins add their
 * own categories through `configRegistry.defineCategory`
 * (`#extensions/config/registry`), and sign-in provider plugins their
 * `oauth.<provider>-*` variables to the oauth category (their manifests).
 *
 * The array is declared `as const` so `ConfigService.get(key)` is typed per key
 * (`CoreConfigValues`).
 */
import type { ConfigCategoryDefinition, ConfigValue, ConfigValueOf } from '#extensions/config/types'
import { configRegistry, type ConfigRegistry } from '#extensions/config/registry'
import { parseTimespan } from '#api/expiration'

const EMAIL = /^[^\s@]+@[^\s@]+$/

/** Error message when `value` is not an absolute http(s) URL, else undefined. */
function httpUrl(label: string) {
  return (value: ConfigValue) => {
    try {
      const url = new URL(String(value))
      if (url.protocol === 'http:' || url.protocol === 'https:') return undefined
    } catch {}
    return `${label} must be an http(s) URL`
  }
}

/** Error message when `value` is neither empty nor an absolute http(s) URL, else undefined. */
function optionalHttpUrl(label: string) {
  const check = httpUrl(label)
  return (value: ConfigValue) => (String(value) === '' ? undefined : check(value))
}

/**
 * Where the admin version page asks for the latest release by default: a
 * GitHub "latest release" API URL (`general.releaseSource`).
 */
export const DEFAULT_RELEASE_SOURCE = 'https://api.github.com/repos/tern-share/tern/releases/latest'

/** Default text of the mail sent to share recipients. */
export const DEFAULT_SHARE_RECIPIENTS_MESSAGE = `Hello!

{creator} shared some files with you. You can view and download them here:
{shareUrl}

Description: {desc}

The share expires {expires}.

Shared securely with {appName}.`

/** Default text of the mail sent when a reverse share link was used. */
export const DEFAULT_REVERSE_SHARE_MESSAGE = `Hello!

Someone just uploaded files with your reverse share link. You can view and download them here:
{shareUrl}

Shared securely with {appName}.`

/** Default text of the password-reset mail. */
export const DEFAULT_RESET_PASSWORD_MESSAGE = `Hello!

We received a request to reset your password. Open this link to choose a new one:
{url}

The link is valid for one hour. If you did not ask for a reset, you can ignore this mail.`

/** Default text of the invitation mail. */
export const DEFAULT_INVITE_MESSAGE = `Hello!

You were invited to {appName}. Open this link to sign in:
{url}

Sign in with the email "{email}" and the password "{password}", then change your password on your account page.`

/** Timespan rule: strictly longer than zero. */
function positiveTimespan(label: string) {
  return (value: ConfigValue) =>
    (parseTimespan(String(value))?.value ?? 0) > 0 ? undefined : `${label} must be longer than 0`
}

/** Every core category with its variables, in admin-panel order. */
export const coreConfigCategories = [
  {
    id: 'general',
    displayName: 'General',
    order: 10,
    variables: [
      {
        key: 'general.appName',
        type: 'string',
        defaultValue: 'Tern',
        public: true,
        validation: {
          validate: (v: ConfigValue) =>
            String(v).length > 100 ? 'App name must be at most 100 characters' : undefined,
        },
      },
      // APP_URL: a deployment states the public address up front (confirmed, no sign-in step).
      {
        key: 'general.appUrl',
        type: 'string',
        defaultValue: 'http://localhost:3000',
        public: true,
        seedFromEnv: 'APP_URL',
        validation: { validate: httpUrl('App URL') },
      },
      { key: 'general.secureCookies', type: 'boolean', defaultValue: 'false' },
      { key: 'general.showHomePage', type: 'boolean', defaultValue: 'true', public: true },
      {
        key: 'general.sessionDuration',
        type: 'timespan',
        defaultValue: '3 months',
        public: true,
        validation: { validate: positiveTimespan('Session duration') },
      },
      // Off by default: the project has no release source of its own yet, and a default URL
      // we do not control could put a link of someone else's choosing on the admin page.
      {
        key: 'general.checkForUpdates',
        type: 'boolean',
        defaultValue: 'false',
        description: 'Ask the release source for the latest version (admin version page)',
      },
      {
        key: 'general.releaseSource',
        type: 'string',
        defaultValue: DEFAULT_RELEASE_SOURCE,
        validation: { validate: httpUrl('Release source') },
        description: 'A GitHub-style "latest release" API URL answering {tag_name, html_url}',
      },
    ],
  },
  {
    id: 'share',
    displayName: 'Share',
    order: 20,
    variables: [
      { key: 'share.allowRegistration', type: 'boolean', defaultValue: 'true', public: true },
      {
        key: 'share.allowUnauthenticatedShares',
        type: 'boolean',
        defaultValue: 'false',
        public: true,
      },
      {
        key: 'share.maxExpiration',
        type: 'timespan',
        defaultValue: '0 days',
        public: true,
        description: '0 = unlimited',
      },
      { key: 'share.defaultExpiration', type: 'timespan', defaultValue: '7 days', public: true },
      {
        key: 'share.shareIdLength',
        type: 'number',
        defaultValue: '8',
        public: true,
        validation: { min: 2, max: 50, message: 'Share ID length must be between 2 and 50' },
      },
      {
        key: 'share.maxSize',
        type: 'filesize',
        defaultValue: '1000000000',
        public: true,
        validation: { min: 1, message: 'Max share size must be at least 1 byte' },
      },
      {
        key: 'share.zipCompressionLevel',
        type: 'number',
        defaultValue: '9',
        validation: { min: 0, max: 9, message: 'Zip compression level must be between 0 and 9' },
      },
      {
        key: 'share.chunkSize',
        type: 'filesize',
        defaultValue: '10000000',
        public: true,
        validation: { min: 1, message: 'Chunk size must be at least 1 byte' },
      },
      { key: 'share.autoOpenShareModal', type: 'boolean', defaultValue: 'false', public: true },
    ],
  },
  {
    id: 'email',
    displayName: 'Email',
    order: 30,
    variables: [
      {
        key: 'email.enableShareEmailRecipients',
        type: 'boolean',
        defaultValue: 'false',
        public: true,
      },
      {
        key: 'email.shareRecipientsSubject',
        type: 'string',
        defaultValue: 'Files shared with you',
      },
      {
        key: 'email.shareRecipientsMessage',
        type: 'text',
        defaultValue: DEFAULT_SHARE_RECIPIENTS_MESSAGE,
        description: 'Placeholders: {creator}, {shareUrl}, {desc}, {expires}, {appName}',
      },
      { key: 'email.reverseShareSubject', type: 'string', defaultValue: 'Reverse share link used' },
      {
        key: 'email.reverseShareMessage',
        type: 'text',
        defaultValue: DEFAULT_REVERSE_SHARE_MESSAGE,
        description: 'Placeholders: {shareUrl}, {appName}',
      },
      {
        key: 'email.resetPasswordSubject',
        type: 'string',
        defaultValue: '{appName} password reset',
      },
      {
        key: 'email.resetPasswordMessage',
        type: 'text',
        defaultValue: DEFAULT_RESET_PASSWORD_MESSAGE,
        description: 'Placeholders: {url}, {appName}',
      },
      { key: 'email.inviteSubject', type: 'string', defaultValue: '{appName} invite' },
      {
        key: 'email.inviteMessage',
        type: 'text',
        defaultValue: DEFAULT_INVITE_MESSAGE,
        description: 'Placeholders: {url}, {email}, {password}, {appName}',
      },
    ],
  },
  {
    id: 'smtp',
    displayName: 'SMTP',
    order: 40,
    variables: [
      { key: 'smtp.enabled', type: 'boolean', defaultValue: 'false', public: true },
      { key: 'smtp.allowUnauthorizedCertificates', type: 'boolean', defaultValue: 'false' },
      { key: 'smtp.host', type: 'string', defaultValue: '' },
      {
        key: 'smtp.port',
        type: 'number',
        defaultValue: '0',
        validation: { min: 0, max: 65535, message: 'SMTP port must be between 0 and 65535' },
        description: '465 = implicit TLS',
      },
      {
        key: 'smtp.email',
        type: 'string',
        defaultValue: '',
        validation: { pattern: EMAIL, message: 'SMTP email must be an email address' },
      },
      { key: 'smtp.username', type: 'string', defaultValue: '' },
      { key: 'smtp.password', type: 'string', defaultValue: '', obscured: true },
    ],
  },
  {
    id: 'oauth',
    displayName: 'Social Login',
    order: 50,
    variables: [
      { key: 'oauth.allowRegistration', type: 'boolean', defaultValue: 'true' },
      { key: 'oauth.ignoreTotp', type: 'boolean', defaultValue: 'true' },
      { key: 'oauth.disablePassword', type: 'boolean', defaultValue: 'false', public: true },
      // Each provider's variables (oauth.github-*, oauth.oidc-*...) come from its plugin's manifest
      // (signInSettings of #extensions/auth/settings), placed after these in Pingvin Share's order.
    ],
  },
  {
    // Pingvin Share's legal pages: /imprint and /privacy, linked from the footer while enabled.
    // A URL, when set, wins over the text (the page and the link redirect there).
    id: 'legal',
    displayName: 'Legal',
    order: 60,
    variables: [
      {
        key: 'legal.enabled',
        type: 'boolean',
        defaultValue: 'false',
        public: true,
        description: 'Show the imprint and privacy policy links in the footer',
      },
      {
        key: 'legal.imprintText',
        type: 'text',
        defaultValue: '',
        public: true,
        description: 'Markdown shown at /imprint',
      },
      {
        key: 'legal.imprintUrl',
        type: 'string',
        defaultValue: '',
        public: true,
        validation: { validate: optionalHttpUrl('Imprint URL') },
        description: 'An external imprint page (wins over the text)',
      },
      {
        key: 'legal.privacyPolicyText',
        type: 'text',
        defaultValue: '',
        public: true,
        description: 'Markdown shown at /privacy',
      },
      {
        key: 'legal.privacyPolicyUrl',
        type: 'string',
        defaultValue: '',
        public: true,
        validation: { validate: optionalHttpUrl('Privacy policy URL') },
        description: 'An external privacy policy page (wins over the text)',
      },
    ],
  },
  {
    id: 'internal',
    displayName: 'Internal',
    order: 1000,
    hidden: true,
    variables: [
      {
        key: 'internal.setupFinished',
        type: 'boolean',
        defaultValue: 'false',
        public: true,
        allowEdit: false,
        description:
          'Set by POST /api/configs/admin/finishSetup once the first admin finished the setup',
      },
    ],
  },
] as const satisfies readonly ConfigCategoryDefinition[]

type CoreVariable = (typeof coreConfigCategories)[number]['variables'][number]

/** Key → type of the effective value, for every core variable (`'share.maxSize'` → number). */
export type CoreConfigValues = {
  [V in CoreVariable as V['key']]: ConfigValueOf<V['type']>
}

/** A core variable key. */
export type CoreConfigKey = keyof CoreConfigValues

const registered = new WeakSet<ConfigRegistry>()

/**
 * Registers the core categories in a registry (the process registry by
 * default). Idempotent: a second call on the same registry does nothing.
 */
export function registerCoreConfigCategories(registry: ConfigRegistry = configRegistry): void {
  if (registered.has(registry)) return
  for (const category of coreConfigCategories) registry.defineCategory(category)
  registered.add(registry)
}
