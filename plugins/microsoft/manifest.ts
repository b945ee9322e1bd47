import { signInSettings } from '#extensions/auth/settings'
import type { ConfigValue } from '#extensions/config/types'
import { definePlugin } from '#extensions/plugins/define_plugin'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

/** The Microsoft tenant: common, organizations, consumers, a domain name or a GUID. */
export function validateMicrosoftTenant(value: ConfigValue): string | undefined {
  const tenant = String(value)
  if (['common', 'organizations', 'consumers'].includes(tenant)) return undefined
  if (GUID.test(tenant) || DOMAIN.test(tenant)) return undefined
  return 'Microsoft tenant must be "common", "organizations", "consumers", a domain name or a tenant ID (GUID)'
}

/**
 * The Microsoft plugin: the `microsoft` sign-in provider (Entra ID work and
 * school accounts, personal accounts), built on the `oidc` plugin's driver.
 * Settings `oauth.microsoft-*` ("Social Login").
 */
export const manifest = definePlugin({
  id: 'microsoft',
  displayName: 'Microsoft sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with a Microsoft account (a tenant, organizations, consumers or common). Configured in the admin settings (Social Login category).',
  provides: { auth: ['microsoft'] },
  requires: ['oidc'],
  config: [
    signInSettings('microsoft', {
      order: 30,
      extra: [
        {
          key: 'oauth.microsoft-tenant',
          type: 'string',
          defaultValue: 'common',
          validation: { validate: validateMicrosoftTenant },
        },
      ],
    }),
  ],
  env: [
    {
      name: 'MICROSOFT_LOGIN_BASE_URL',
      required: false,
      description: 'Base URL replacing https://login.microsoftonline.com (national clouds, tests).',
    },
  ],
})
