import { signInSettings } from '#extensions/auth/settings'
import type { ConfigValue } from '#extensions/config/types'
import { definePlugin } from '#extensions/plugins/define_plugin'

/** Error message when the discovery URI is not an absolute http(s) URL. */
function validateDiscoveryUri(value: ConfigValue): string | undefined {
  try {
    const url = new URL(String(value))
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined
  } catch {}
  return 'OIDC discovery URI must be an http(s) URL'
}

/**
 * The OpenID Connect plugin: the `oidc` sign-in provider ("OpenID Connect")
 * for any standard OIDC provider (Keycloak, Authentik, Authelia, Zitadel...).
 * Its settings are the `oauth.oidc-*` variables of the "Social Login" category.
 */
export const manifest = definePlugin({
  id: 'oidc',
  displayName: 'OpenID Connect sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with any OpenID Connect provider (authorization code with PKCE, state and nonce; ID token checked against the provider keys). Configured in the admin settings (Social Login category).',
  provides: { auth: ['oidc'] },
  requires: [],
  config: [
    signInSettings('oidc', {
      order: 50,
      extra: [
        {
          key: 'oauth.oidc-discoveryUri',
          type: 'string',
          defaultValue: '',
          validation: { validate: validateDiscoveryUri },
        },
        { key: 'oauth.oidc-usernameClaim', type: 'string', defaultValue: '' },
        { key: 'oauth.oidc-scope', type: 'string', defaultValue: 'openid email profile' },
      ],
      after: [{ key: 'oauth.oidc-signOut', type: 'boolean', defaultValue: 'false' }],
    }),
  ],
  env: [],
})
