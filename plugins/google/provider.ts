import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { googleEndpoints, googleEndpointsAt } from './src/endpoints.js'
import { TernGoogleDriver, googleProfile } from './src/google_driver.js'

/** Registers the `google` sign-in provider; its Ally driver is built per request from the current settings. */
export default class GoogleProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    const base = this.context.env.get('GOOGLE_OAUTH_BASE_URL') as string | undefined
    if (base) Object.assign(googleEndpoints, googleEndpointsAt(base))
    authProviders.register({
      id: 'google',
      displayName: 'Google',
      enabledKey: 'oauth.google-enabled',
      configKeys: ['oauth.google-clientId', 'oauth.google-clientSecret'],
      driver: (ctx, { config, callbackUrl, nonce }) =>
        new TernGoogleDriver(ctx, {
          clientId: String(config['oauth.google-clientId'] ?? '').trim(),
          clientSecret: String(config['oauth.google-clientSecret'] ?? ''),
          callbackUrl,
          nonce,
        }),
      profile: googleProfile,
    })
  }
}
