import { definePlugin } from '#extensions/plugins/define_plugin'

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
  env: [],
})
