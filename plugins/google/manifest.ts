import { signInSettings } from '#extensions/auth/settings'
import { definePlugin } from '#extensions/plugins/define_plugin'

/** The Google plugin: the `google` sign-in provider (settings `oauth.google-*`, "Social Login"). */
export const manifest = definePlugin({
  id: 'google',
  displayName: 'Google sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with a Google account. Configured in the admin settings (Social Login category).',
  provides: { auth: ['google'] },
  requires: [],
  config: [signInSettings('google', { order: 20 })],
  env: [
    {
      name: 'GOOGLE_OAUTH_BASE_URL',
      required: false,
      description:
        "One base URL replacing Google's authorization, token and userinfo origins (tests).",
    },
  ],
})
