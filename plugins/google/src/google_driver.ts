/**
 * The Google driver: authorization code with `state`, PKCE and `nonce`
 * (scopes `openid email profile`), then the OpenID userinfo endpoint
 * (`sub`, `email`, `email_verified`, `name`). The token and userinfo are
 * fetched directly from Google over TLS, so the userinfo answer is trusted
 * (OpenID Connect Core §3.1.3.7).
 */
import { SocialLoginException } from '#extensions/auth/main'
import type { AuthorizationCallback, AuthorizationRequest, SocialAuthDriver, SocialProfile } from '#extensions/auth/main'
import { exchangeCode, fetchWithToken } from '#extensions/auth/oauth2'
import { googleEndpoints } from './endpoints.js'

/** What the driver needs. */
export interface GoogleDriverOptions {
  clientId: string
  clientSecret: string
  callbackUrl: string
}

/** See the module comment. */
export class GoogleDriver implements SocialAuthDriver {
  constructor(protected options: GoogleDriverOptions) {}

  authorizationUrl(request: AuthorizationRequest): string {
    if (!this.options.clientId) throw new Error('The Google provider has no client id')
    const url = new URL(googleEndpoints.authorize)
    url.searchParams.set('response_type', 'code')
    url.searchParams.set('client_id', this.options.clientId)
    url.searchParams.set('redirect_uri', this.options.callbackUrl)
    url.searchParams.set('scope', 'openid email profile')
    url.searchParams.set('state', request.state)
    url.searchParams.set('nonce', request.nonce)
    url.searchParams.set('code_challenge', request.codeChallenge)
    url.searchParams.set('code_challenge_method', 'S256')
    url.searchParams.set('prompt', 'select_account')
    return url.toString()
  }

  async profile(callback: AuthorizationCallback): Promise<SocialProfile> {
    const tokens = await exchangeCode({
      tokenEndpoint: googleEndpoints.token,
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      code: callback.code,
      redirectUri: this.options.callbackUrl,
      codeVerifier: callback.codeVerifier,
      clientAuth: 'post',
    })
    const info = await fetchWithToken<Record<string, unknown>>(googleEndpoints.userinfo, tokens.access_token)
    if (typeof info.sub !== 'string' || info.sub === '') throw new SocialLoginException('cannot_get_user_info')
    const email = typeof info.email === 'string' && info.email ? info.email : null
    return {
      id: info.sub,
      username: (typeof info.name === 'string' && info.name) || email?.split('@')[0] || info.sub,
      email,
      emailVerified: info.email_verified === true || info.email_verified === 'true',
    }
  }
}
