import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { OidcDriver } from './src/oidc_driver.js'
import { OIDC_CONFIG_KEYS, OIDC_ENABLED_KEY, oidcSettingsFrom } from './src/settings.js'

/** Registers the `oidc` sign-in provider; its driver is built per sign-in from the current settings. */
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
      driver: ({ config, callbackUrl }) => new OidcDriver({ ...oidcSettingsFrom(config), callbackUrl }),
    })
  }
}
