/**
 * Pingvin Share 1.13's configuration variables, as its seed
 * (`backend/prisma/seed/config.seed.ts`) defines them: every category its
 * admin menu lists, their keys in Pingvin's order, types and defaults, and
 * which are public (`secret: false`) or obscured. What a Pingvin 1.x client
 * sees of Tern's configuration is cut to this list (Tern's additions never
 * change what a Pingvin client sees; see
 * `ConfigService.publicVariables` and `adminCategory`).
 *
 * Categories of the admin menu, in its order: General, Email, Share, SMTP,
 * OAuth, LDAP, S3, Legal, Cache (`frontend/src/components/admin/configuration/
 * ConfigurationNavBar.tsx`). `internal.jwtSecret` is locked in Pingvin and
 * never answered, so it is not listed.
 */
import type { ConfigVariableType } from '#extensions/config/types'

/** One Pingvin variable. */
export interface PingvinVariable {
  readonly key: string
  readonly type: ConfigVariableType
  readonly defaultValue: string
  /** Pingvin's `secret: false`: listed by `GET /api/configs`. */
  readonly public: boolean
  readonly obscured: boolean
  /**
   * When Tern has no registered variable of this key: the plugin that
   * defines it (its settings exist only while it is enabled), or undefined
   * when Tern has no such setting at all.
   */
  readonly plugin?: string
}

type Entry = [
  name: string,
  type: ConfigVariableType,
  defaultValue: string,
  flags?: { public?: boolean; obscured?: boolean; plugin?: string },
]

function category(id: string, entries: Entry[], plugin?: string): PingvinVariable[] {
  return entries.map(([name, type, defaultValue, flags = {}]) => ({
    key: `${id}.${name}`,
    type,
    defaultValue,
    public: flags.public ?? false,
    obscured: flags.obscured ?? false,
    plugin: 'plugin' in flags ? flags.plugin : plugin,
  }))
}

const PUBLIC = { public: true }
const OBSCURED = { obscured: true }

/** A sign-in provider's `enabled`, extra, `clientId` and `clientSecret` keys (the provider plugin's id = provider id). */
function provider(id: string, extra: Entry[] = []): Entry[] {
  const plugin = { plugin: id }
  return [
    [`${id}-enabled`, 'boolean', 'false', plugin],
    ...extra.map(([name, type, value, flags]): Entry => [
      `${id}-${name}`,
      type,
      value,
      { plugin: id, ...flags },
    ]),
    [`${id}-clientId`, 'string', '', plugin],
    [`${id}-clientSecret`, 'string', '', { obscured: true, plugin: id }],
  ]
}

/** No Tern equivalent: answered with Pingvin's default, read-only. */
const NONE = { plugin: undefined }

/** Pingvin's variables by category, each in Pingvin's order. */
export const PINGVIN_CATEGORIES: ReadonlyMap<string, readonly PingvinVariable[]> = new Map([
  [
    'general',
    category('general', [
      ['appName', 'string', 'Pingvin Share', PUBLIC],
      ['appUrl', 'string', 'http://localhost:3000', PUBLIC],
      ['secureCookies', 'boolean', 'false'],
      ['showHomePage', 'boolean', 'true', PUBLIC],
      ['sessionDuration', 'timespan', '3 months', PUBLIC],
    ]),
  ],
  [
    'share',
    category('share', [
      ['allowRegistration', 'boolean', 'true', PUBLIC],
      ['allowUnauthenticatedShares', 'boolean', 'false', PUBLIC],
      ['maxExpiration', 'timespan', '0 days', PUBLIC],
      ['shareIdLength', 'number', '8', PUBLIC],
      ['maxSize', 'filesize', '1000000000', PUBLIC],
      ['zipCompressionLevel', 'number', '9'],
      ['chunkSize', 'filesize', '10000000', PUBLIC],
      ['autoOpenShareModal', 'boolean', 'false', PUBLIC],
    ]),
  ],
  [
    'cache',
    category('cache', [
      ['redis-enabled', 'boolean', 'false'],
      ['redis-url', 'string', 'redis://pingvin-redis:6379'],
      ['ttl', 'number', '60'],
      ['maxItems', 'number', '1000'],
    ]),
  ],
  [
    'email',
    // Core in Tern, so always answered from Tern's own variables: the long
    // message defaults of Pingvin are never shown and are left out here.
    category('email', [
      ['enableShareEmailRecipients', 'boolean', 'false', PUBLIC],
      ['shareRecipientsSubject', 'string', 'Files shared with you'],
      ['shareRecipientsMessage', 'text', ''],
      ['reverseShareSubject', 'string', 'Reverse share link used'],
      ['reverseShareMessage', 'text', ''],
      ['resetPasswordSubject', 'string', 'Pingvin Share password reset'],
      ['resetPasswordMessage', 'text', ''],
      ['inviteSubject', 'string', 'Pingvin Share invite'],
      ['inviteMessage', 'text', ''],
    ]),
  ],
  [
    'smtp',
    category('smtp', [
      ['enabled', 'boolean', 'false', PUBLIC],
      // Public in Pingvin; Tern keeps it for admins (nothing a visitor needs).
      ['allowUnauthorizedCertificates', 'boolean', 'false', PUBLIC],
      ['host', 'string', ''],
      ['port', 'number', '0'],
      ['email', 'string', ''],
      ['username', 'string', ''],
      ['password', 'string', '', OBSCURED],
    ]),
  ],
  [
    'ldap',
    category(
      'ldap',
      [
        ['enabled', 'boolean', 'false', PUBLIC],
        ['url', 'string', ''],
        ['bindDn', 'string', ''],
        ['bindPassword', 'string', '', OBSCURED],
        ['searchBase', 'string', ''],
        ['searchQuery', 'string', ''],
        ['adminGroups', 'string', ''],
        ['fieldNameMemberOf', 'string', 'memberOf'],
        ['fieldNameEmail', 'string', 'userPrincipalName'],
      ],
      'ldap'
    ),
  ],
  [
    'oauth',
    category('oauth', [
      ['allowRegistration', 'boolean', 'true'],
      ['ignoreTotp', 'boolean', 'true'],
      ['disablePassword', 'boolean', 'false', PUBLIC],
      ...provider('github'),
      ...provider('google'),
      ...provider('microsoft', [['tenant', 'string', 'common']]),
      ...provider('discord', [
        ['limitedGuild', 'string', ''],
        ['limitedUsers', 'string', '', NONE],
      ]),
      ...provider('oidc', [
        ['discoveryUri', 'string', ''],
        ['signOut', 'boolean', 'false'],
        ['scope', 'string', 'openid email profile'],
        ['usernameClaim', 'string', ''],
        ['rolePath', 'string', '', NONE],
        ['roleGeneralAccess', 'string', '', NONE],
        ['roleAdminAccess', 'string', '', NONE],
      ]),
    ]),
  ],
  [
    's3',
    category(
      's3',
      [
        ['enabled', 'boolean', 'false'],
        ['endpoint', 'string', ''],
        ['region', 'string', ''],
        ['bucketName', 'string', ''],
        ['bucketPath', 'string', ''],
        ['key', 'string', ''],
        ['secret', 'string', '', OBSCURED],
        ['useChecksum', 'boolean', 'true', NONE],
      ],
      's3-storage'
    ),
  ],
  [
    'legal',
    category('legal', [
      ['enabled', 'boolean', 'false', PUBLIC],
      ['imprintText', 'text', '', PUBLIC],
      ['imprintUrl', 'string', '', PUBLIC],
      ['privacyPolicyText', 'text', '', PUBLIC],
      ['privacyPolicyUrl', 'string', '', PUBLIC],
    ]),
  ],
])

/** The categories of Pingvin 1.13's admin menu, in its order. */
export const PINGVIN_ADMIN_CATEGORIES = [
  'general',
  'email',
  'share',
  'smtp',
  'oauth',
  'ldap',
  's3',
  'legal',
  'cache',
] as const

/** Every Pingvin variable by key. */
export const PINGVIN_VARIABLES: ReadonlyMap<string, PingvinVariable> = new Map(
  [...PINGVIN_CATEGORIES.values()].flat().map((variable) => [variable.key, variable])
)
