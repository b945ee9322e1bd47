import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { endSessionUrl, OidcDriver, type OidcUser } from './src/oidc_driver.js'
import { OIDC_CONFIG_KEYS, OIDC_ENABLED_KEY, oidcSettingsFrom } from './src/settings.js'

/**
 * Registers the `oidc` sign-in provider: its Ally driver is built per
 * sign-in from the current settings; the session keeps the ID token only
 * when `oauth.oidc-signOut` is on, for the end-session URL at sign-out.
 */
export default class OidcProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    authProviders.register({
      id: 'oidc',
      displayName: 'OpenID Connect',
      enabledKey: OIDC_ENABLED_KEY,
      configKeys: [...OIDC_CONFIG_KEYS],
      driver: (ctx, { config, callbackUrl, nonce }) => {
        const { signOut: ignoredSignOut, ...settings } = oidcSettingsFrom(config)
        return new OidcDriver(ctx, { ...settings, callbackUrl, nonce })
      },
      profile: (user, { config }) => {
        const oidcUser = user as OidcUser
        return {
          id: oidcUser.id,
          username: oidcUser.nickName,
          email: oidcUser.email,
          emailVerified: oidcUser.emailVerificationState === 'verified',
          idToken: oidcSettingsFrom(config).signOut ? oidcUser.token.idToken : null,
        }
      },
      signOutUrl: async ({ config }, idToken, postLogoutRedirectUri) => {
        const settings = oidcSettingsFrom(config)
        if (!settings.signOut || !settings.discoveryUri) return null
        return endSessionUrl(
          settings.discoveryUri,
          settings.clientId,
          idToken,
          postLogoutRedirectUri
        )
      },
    })
  }
}
