import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { microsoftEndpoints } from './src/endpoints.js'
import { MicrosoftDriver } from './src/microsoft_driver.js'

/** Registers the `microsoft` sign-in provider; its Ally driver is built per sign-in from the current settings. */
export default class MicrosoftProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    const base = this.context.env.get('MICROSOFT_LOGIN_BASE_URL') as string | undefined
    if (base) microsoftEndpoints.base = base
    authProviders.register({
      id: 'microsoft',
      displayName: 'Microsoft',
      enabledKey: 'oauth.microsoft-enabled',
      configKeys: [
        'oauth.microsoft-tenant',
        'oauth.microsoft-clientId',
        'oauth.microsoft-clientSecret',
      ],
      driver: (ctx, { config, callbackUrl, nonce }) =>
        new MicrosoftDriver(ctx, {
          tenant: String(config['oauth.microsoft-tenant'] ?? 'common'),
          clientId: String(config['oauth.microsoft-clientId'] ?? '').trim(),
          clientSecret: String(config['oauth.microsoft-clientSecret'] ?? ''),
          callbackUrl,
          nonce,
        }),
    })
  }
}
