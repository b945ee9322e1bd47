/**
 * Every configuration key of Pingvin Share 1.13 by category, in the order of
 * Pingvin's admin menu: its seed (`backend/prisma/seed/config.seed.ts`,
 * commit 4859072a) plus the `legal`, `cache` and `s3.useChecksum` settings of
 * 1.13. Written out here on purpose rather than read from Tern's catalogue, so
 * the tests compare Tern against Pingvin and not against itself.
 * `internal.jwtSecret` is not shown in any menu and is left out.
 */
export const PINGVIN_CONFIG_KEYS: Record<string, string[]> = {
  general: ['appName', 'appUrl', 'secureCookies', 'showHomePage', 'sessionDuration'],
  email: [
    'enableShareEmailRecipients',
    'shareRecipientsSubject',
    'shareRecipientsMessage',
    'reverseShareSubject',
    'reverseShareMessage',
    'resetPasswordSubject',
    'resetPasswordMessage',
    'inviteSubject',
    'inviteMessage',
  ],
  share: [
    'allowRegistration',
    'allowUnauthenticatedShares',
    'maxExpiration',
    'shareIdLength',
    'maxSize',
    'zipCompressionLevel',
    'chunkSize',
    'autoOpenShareModal',
  ],
  smtp: [
    'enabled',
    'allowUnauthorizedCertificates',
    'host',
    'port',
    'email',
    'username',
    'password',
  ],
  oauth: [
    'allowRegistration',
    'ignoreTotp',
    'disablePassword',
    'github-enabled',
    'github-clientId',
    'github-clientSecret',
    'google-enabled',
    'google-clientId',
    'google-clientSecret',
    'microsoft-enabled',
    'microsoft-tenant',
    'microsoft-clientId',
    'microsoft-clientSecret',
    'discord-enabled',
    'discord-limitedGuild',
    'discord-limitedUsers',
    'discord-clientId',
    'discord-clientSecret',
    'oidc-enabled',
    'oidc-discoveryUri',
    'oidc-signOut',
    'oidc-scope',
    'oidc-usernameClaim',
    'oidc-rolePath',
    'oidc-roleGeneralAccess',
    'oidc-roleAdminAccess',
    'oidc-clientId',
    'oidc-clientSecret',
  ],
  ldap: [
    'enabled',
    'url',
    'bindDn',
    'bindPassword',
    'searchBase',
    'searchQuery',
    'adminGroups',
    'fieldNameMemberOf',
    'fieldNameEmail',
  ],
  s3: ['enabled', 'endpoint', 'region', 'bucketName', 'bucketPath', 'key', 'secret', 'useChecksum'],
  legal: ['enabled', 'imprintText', 'imprintUrl', 'privacyPolicyText', 'privacyPolicyUrl'],
  cache: ['redis-enabled', 'redis-url', 'ttl', 'maxItems'],
}

/** The same keys as `category.name`, with `internal.jwtSecret`: every key Pingvin 1.x stores. */
export const PINGVIN_CONFIG_KEY_NAMES: string[] = [
  'internal.jwtSecret',
  ...Object.entries(PINGVIN_CONFIG_KEYS).flatMap(([category, names]) =>
    names.map((name) => `${category}.${name}`)
  ),
]
