import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { discordEndpoints, endpointsAt } from './src/endpoints.js'
import { TernDiscordDriver } from './src/discord_driver.js'

/** Registers the `discord` sign-in provider; its Ally driver is built per request from the current settings. */
export default class DiscordProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    const base = this.context.env.get('DISCORD_BASE_URL') as string | undefined
    if (base) Object.assign(discordEndpoints, endpointsAt(base))
    authProviders.register({
      id: 'discord',
      displayName: 'Discord',
      enabledKey: 'oauth.discord-enabled',
      configKeys: [
        'oauth.discord-limitedGuild',
        'oauth.discord-clientId',
        'oauth.discord-clientSecret',
      ],
      // Discord documents no PKCE.
      pkce: false,
      driver: (ctx, { config, callbackUrl }) =>
        new TernDiscordDriver(ctx, {
          clientId: String(config['oauth.discord-clientId'] ?? '').trim(),
          clientSecret: String(config['oauth.discord-clientSecret'] ?? ''),
          limitedGuild: String(config['oauth.discord-limitedGuild'] ?? '').trim(),
          callbackUrl,
        }),
    })
  }
}
