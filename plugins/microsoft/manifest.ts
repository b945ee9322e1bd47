import { definePlugin } from '#extensions/plugins/define_plugin'

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
  env: [
    {
      name: 'MICROSOFT_LOGIN_BASE_URL',
      required: false,
      description: 'Base URL replacing https://login.microsoftonline.com (national clouds, tests).',
    },
  ],
})
