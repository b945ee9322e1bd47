/**
 * The GitHub driver: Ally's built-in `GithubDriver` (OAuth app,
 * authorization code with `state`; the core adds PKCE) with Tern's e-mail
 * rule: the account's e-mail is its PRIMARY address from `GET /user/emails`
 * (scope `user:email`), verified or not as GitHub says, even when `/user`
 * shows a public one (Ally would take that one as verified). The username
 * is the login.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { GithubDriver } from '@adonisjs/ally/drivers/github'
import type { ApiRequestContract, GithubDriverConfig } from '@adonisjs/ally/types'
import { githubEndpoints } from './endpoints.js'

/** What the driver needs beyond the endpoints. */
export interface GithubDriverOptions {
  clientId: string
  clientSecret: string
  callbackUrl: string
}

interface GithubEmail {
  email: string
  primary: boolean
  verified: boolean
}

/** Ally's configuration for `options`, with the endpoints of `githubEndpoints` (read now). */
export function githubDriverConfig(options: GithubDriverOptions): GithubDriverConfig {
  if (!options.clientId) throw new Error('The GitHub provider has no client id')
  return {
    ...options,
    authorizeUrl: `${githubEndpoints.oauth}/login/oauth/authorize`,
    accessTokenUrl: `${githubEndpoints.oauth}/login/oauth/access_token`,
    userInfoUrl: `${githubEndpoints.api}/user`,
    userEmailUrl: `${githubEndpoints.api}/user/emails`,
    scopes: ['read:user', 'user:email'],
    allowSignup: false,
  }
}

/** See the module comment. */
export class TernGithubDriver extends GithubDriver {
  constructor(ctx: HttpContext, options: GithubDriverOptions) {
    super(ctx, githubDriverConfig(options))
  }

  async user(callback?: (request: ApiRequestContract) => void) {
    const token = await this.accessToken(callback)
    const user = await this.getUserInfo(token.token, callback)
    const request = this.getAuthenticatedRequest(this.config.userEmailUrl!, token.token)
    request.header('X-GitHub-Api-Version', '2022-11-28')
    const emails = (await request.get()) as GithubEmail[]
    const primary = Array.isArray(emails) ? emails.find((email) => email.primary) : undefined
    return {
      ...user,
      id: user.id === undefined || user.id === null ? user.id : String(user.id),
      nickName: String(user.original?.login ?? ''),
      email: primary?.email ?? null,
      emailVerificationState: primary
        ? primary.verified
          ? 'verified'
          : 'unverified'
        : 'unsupported',
      token,
    } as const
  }
}
