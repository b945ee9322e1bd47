import { signInSettings } from '#extensions/auth/settings'
import { definePlugin } from '#extensions/plugins/define_plugin'

/**
 * The GitHub plugin: the `github` sign-in provider. Its settings are the
 * `oauth.github-*` variables its manifest adds to the "Social Login" category.
 */
export const manifest = definePlugin({
  id: 'github',
  displayName: 'GitHub sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with a GitHub account (OAuth app). Configured in the admin settings (Social Login category).',
  provides: { auth: ['github'] },
  requires: [],
  config: [signInSettings('github', { order: 10 })],
  env: [
    {
      name: 'GITHUB_OAUTH_BASE_URL',
      required: false,
      description:
        'Base URL of the OAuth endpoints (default https://github.com; GitHub Enterprise Server, tests).',
    },
    {
      name: 'GITHUB_API_BASE_URL',
      required: false,
      description: 'Base URL of the REST API (default https://api.github.com).',
    },
  ],
})
