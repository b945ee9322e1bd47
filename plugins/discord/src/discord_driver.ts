/**
 * The Discord driver: authorization code with `state` (scopes `identify
 * email`, plus `guilds` when sign-in is limited to one server), then
 * `GET /users/@me` (`id`, `username`, `global_name`, `email`, `verified`)
 * and, when `oauth.discord-limitedGuild` is set, `GET /users/@me/guilds`:
 * a user who is not a member of that server is refused with
 * `discord_guild_permission_denied`. Discord documents no PKCE, so none is sent.
 */
import { SocialLoginException } from '#extensions/auth/main'
import type { AuthorizationCallback, AuthorizationRequest, SocialAuthDriver, SocialProfile } from '#extensions/auth/main'
import { exchangeCode, fetchWithToken } from '#extensions/auth/oauth2'
import { discordEndpoints } from './endpoints.js'

/** What the driver needs. */
export interface DiscordDriverOptions {
  clientId: string
  clientSecret: string
  callbackUrl: string
  /** The server (guild) id the user must be a member of; empty = any. */
  limitedGuild: string
}

interface DiscordUser {
  id?: string
  username?: string
  global_name?: string | null
  email?: string | null
  verified?: boolean
}

/** See the module comment. */
export class DiscordDriver implements SocialAuthDriver {
  constructor(protected options: DiscordDriverOptions) {}

  authorizationUrl(request: AuthorizationRequest): string {
    if (!this.options.clientId) throw new Error('The Discord provider has no client id')
    const url = new URL(discordEndpoints.authorize)
    url.searchParams.set('response_type', 'code')
    url.searchParams.set('client_id', this.options.clientId)
    url.searchParams.set('redirect_uri', this.options.callbackUrl)
    url.searchParams.set('scope', this.options.limitedGuild ? 'identify email guilds' : 'identify email')
    url.searchParams.set('state', request.state)
    url.searchParams.set('prompt', 'none')
    return url.toString()
  }

  async profile(callback: AuthorizationCallback): Promise<SocialProfile> {
    const tokens = await exchangeCode({
      tokenEndpoint: discordEndpoints.token,
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      code: callback.code,
      redirectUri: this.options.callbackUrl,
    })
    const user = await fetchWithToken<DiscordUser>(discordEndpoints.user, tokens.access_token)
    if (!user.id || !user.username) throw new SocialLoginException('cannot_get_user_info')
    if (this.options.limitedGuild) {
      const guilds = await fetchWithToken<{ id: string }[]>(discordEndpoints.guilds, tokens.access_token)
      if (!Array.isArray(guilds) || !guilds.some((guild) => guild.id === this.options.limitedGuild)) {
        throw new SocialLoginException('discord_guild_permission_denied')
      }
    }
    return {
      id: user.id,
      username: user.global_name || user.username,
      email: user.email || null,
      emailVerified: user.verified === true,
    }
  }
}
