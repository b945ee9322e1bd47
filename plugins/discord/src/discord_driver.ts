/**
 * The Discord driver: Ally's built-in `DiscordDriver` (authorization code
 * with `state`, scopes `identify email`, plus `guilds` when sign-in is
 * limited to one server; Discord documents no PKCE, so the provider is
 * registered with `pkce: false`), then `GET /users/@me` and, when
 * `oauth.discord-limitedGuild` is set, `GET /users/@me/guilds`: a user who
 * is not a member of that server is refused with
 * `discord_guild_permission_denied`. The username is `global_name`, else
 * `username`; the e-mail counts as verified only for `verified: true`.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { DiscordDriver } from '@adonisjs/ally/drivers/discord'
import type { ApiRequestContract, DiscordDriverConfig } from '@adonisjs/ally/types'
import { SocialLoginException } from '#extensions/auth/main'
import { discordEndpoints } from './endpoints.js'

/** What the driver needs beyond the endpoints. */
export interface DiscordDriverOptions {
  clientId: string
  clientSecret: string
  callbackUrl: string
  /** The server (guild) id the user must be a member of; empty = any. */
  limitedGuild: string
}

/** Ally's configuration for `options`, with the endpoints of `discordEndpoints` (read now). */
export function discordDriverConfig(options: DiscordDriverOptions): DiscordDriverConfig {
  if (!options.clientId) throw new Error('The Discord provider has no client id')
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    callbackUrl: options.callbackUrl,
    authorizeUrl: discordEndpoints.authorize,
    accessTokenUrl: discordEndpoints.token,
    userInfoUrl: discordEndpoints.user,
    scopes: options.limitedGuild ? ['identify', 'email', 'guilds'] : ['identify', 'email'],
    prompt: 'none',
  }
}

/** See the module comment. */
export class TernDiscordDriver extends DiscordDriver {
  #limitedGuild: string

  constructor(ctx: HttpContext, options: DiscordDriverOptions) {
    super(ctx, discordDriverConfig(options))
    this.#limitedGuild = options.limitedGuild
  }

  async user(callback?: (request: ApiRequestContract) => void) {
    const user = await super.user(callback)
    if (!user.id || !user.original?.username) {
      throw new SocialLoginException(
        'cannot_get_user_info',
        'Discord answered no user id or username'
      )
    }
    if (this.#limitedGuild) {
      const guilds = (await this.getAuthenticatedRequest(
        discordEndpoints.guilds,
        user.token.token
      ).get()) as {
        id: string
      }[]
      if (!Array.isArray(guilds) || !guilds.some((guild) => guild.id === this.#limitedGuild)) {
        throw new SocialLoginException('discord_guild_permission_denied')
      }
    }
    return {
      ...user,
      id: String(user.id),
      nickName: String(user.original.global_name || user.original.username),
      email: user.original.email || null,
      emailVerificationState: user.original.verified === true ? 'verified' : 'unverified',
    } as const
  }
}
