import type { ApplicationService } from '@adonisjs/core/types'
import type { PluginContext } from '#extensions/plugins/define_plugin'
import { authProviders } from '#extensions/auth/main'
import { githubEndpointsFromEnv } from './src/endpoints.js'
import { TernGithubDriver } from './src/github_driver.js'

/** Registers the `github` sign-in provider; its Ally driver is built per request from the current settings. */
export default class GithubProvider {
  constructor(
    protected app: ApplicationService,
    protected context: PluginContext
  ) {}

  boot() {
    githubEndpointsFromEnv((name) => this.context.env.get(name) as string | undefined)
    authProviders.register({
      id: 'github',
      displayName: 'GitHub',
      enabledKey: 'oauth.github-enabled',
      configKeys: ['oauth.github-clientId', 'oauth.github-clientSecret'],
      driver: (ctx, { config, callbackUrl }) =>
        new TernGithubDriver(ctx, {
          clientId: String(config['oauth.github-clientId'] ?? '').trim(),
          clientSecret: String(config['oauth.github-clientSecret'] ?? ''),
          callbackUrl,
        }),
    })
  }
}
