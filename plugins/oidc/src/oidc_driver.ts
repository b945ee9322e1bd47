/**
 * A generic OpenID Connect driver on Ally's `Oauth2Driver`: authorization
 * code flow whose endpoints come from the provider's discovery document,
 * with the `nonce` of the sign-in in the authorization request; `user()`
 * checks the ID token's signature against the provider's published keys
 * (JWKS, `jose`), its issuer, audience, expiry and nonce, then merges the
 * userinfo claims. State and PKCE (S256) are the core's (its
 * `oauth_<provider>_state` cookie, see `#extensions/auth/types`). Other
 * OIDC-based providers (Microsoft) reuse it with their own discovery URI,
 * issuer and e-mail rules.
 *
 * Built per request from the current settings, so an admin change applies
 * to the next sign-in.
 */
import { Oauth2Driver, type ApiRequest, type RedirectRequest } from '@adonisjs/ally'
import type { AllyUserContract, ApiRequestContract, Oauth2AccessToken } from '@adonisjs/ally/types'
import type { HttpContext } from '@adonisjs/core/http'
import { jwtVerify, type JWTPayload } from 'jose'
import { SocialLoginException } from '#extensions/auth/main'
import { discover, keySet, PROVIDER_TIMEOUT_MS, type OidcProviderMetadata } from './discovery.js'

/** Claims of an ID token / userinfo answer that the driver reads. */
export type OidcClaims = JWTPayload & Record<string, unknown>

/** What the driver needs (Ally's client config plus the OIDC settings). */
export interface OidcDriverConfig {
  /** URL of the provider's `/.well-known/openid-configuration`. */
  discoveryUri: string
  clientId: string
  clientSecret: string
  /** Absolute redirect URI (Tern's callback). */
  callbackUrl: string
  /** The nonce of this sign-in (the core's `context.nonce`): sent at the redirect, required in the ID token. */
  nonce: string
  /** Space-separated scopes; `openid` is added when missing. */
  scope: string
  /** Claim naming the user; empty: preferred_username, name, the e-mail's local part, sub. */
  usernameClaim?: string
  /**
   * Whether the ID token's `iss` is acceptable (`claims` are the verified
   * token's). Default: equal to the discovery document's `issuer`
   * (multi-tenant providers such as Microsoft `common` answer a template
   * and override this).
   */
  acceptIssuer?: (claims: OidcClaims, metadata: OidcProviderMetadata) => boolean
  /** Whether the provider vouches for the e-mail of these claims (default: `email_verified` is not false). */
  emailVerified?: (claims: OidcClaims) => boolean
}

/** The token of an OIDC sign-in: Ally's access token plus the raw ID token. */
export type OidcAccessToken = Oauth2AccessToken & { idToken: string }

/** The user the driver answers: Ally's user; `original` holds the merged, verified claims. */
export type OidcUser = AllyUserContract<OidcAccessToken> & { original: OidcClaims }

/** Scopes with `openid` included. */
function scopesOf(scope: string): string[] {
  const scopes = scope.split(/\s+/).filter(Boolean)
  if (!scopes.includes('openid')) scopes.unshift('openid')
  return scopes
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** See the module comment. */
export class OidcDriver extends Oauth2Driver<OidcAccessToken, string> {
  /** Filled from the discovery document before each use. */
  protected authorizeUrl = ''
  protected accessTokenUrl = ''
  protected codeParamName = 'code'
  protected errorParamName = 'error'
  protected stateParamName = 'state'
  protected scopeParamName = 'scope'
  protected scopesSeparator = ' '
  /** Ally's default, never written: the core keeps the state in its `oauth_<provider>_state`. */
  protected stateCookieName = 'oidc_oauth_state'
  #metadata?: OidcProviderMetadata

  constructor(
    ctx: HttpContext,
    public config: OidcDriverConfig
  ) {
    super(ctx, {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      callbackUrl: config.callbackUrl,
    })
    this.loadState()
  }

  /** The discovery document; a provider that cannot be reached is the `default` error. */
  protected async metadata(): Promise<OidcProviderMetadata> {
    if (!this.#metadata) {
      if (!this.config.discoveryUri || !this.config.clientId) {
        throw new Error(
          'The OpenID Connect provider is not configured (discovery URI and client id)'
        )
      }
      this.#metadata = await discover(this.config.discoveryUri)
      this.authorizeUrl = this.#metadata.authorization_endpoint
      this.accessTokenUrl = this.#metadata.token_endpoint
    }
    return this.#metadata
  }

  protected configureRedirectRequest(request: RedirectRequest<string>): void {
    request.scopes(scopesOf(this.config.scope))
    request.param('response_type', 'code')
    if (this.config.nonce) request.param('nonce', this.config.nonce)
  }

  /** The authorization URL (after discovery). */
  async redirectUrl(
    callback?: Parameters<Oauth2Driver<OidcAccessToken, string>['redirectUrl']>[0]
  ) {
    await this.metadata()
    return super.redirectUrl(callback)
  }

  /** Client authentication: client_secret_basic unless the provider offers only client_secret_post. */
  protected configureAccessTokenRequest(request: ApiRequest): void {
    request.header('Accept', 'application/json')
    const methods = this.#metadata?.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
    if (!methods.includes('client_secret_basic') && methods.includes('client_secret_post')) return
    request.clearField('client_id')
    request.clearField('client_secret')
    const user = encodeURIComponent(this.config.clientId)
    const secret = encodeURIComponent(this.config.clientSecret)
    request.header('Authorization', `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`)
  }

  /**
   * Exchanges the code (Ally checks the state and sends the PKCE verifier).
   * `invalid_grant` (a used or expired code) is `expired_token`; another
   * failure, or no ID token, is `cannot_get_user_info`.
   */
  async accessToken(callback?: (request: ApiRequestContract) => void): Promise<OidcAccessToken> {
    await this.metadata()
    let token: Oauth2AccessToken
    try {
      token = await super.accessToken(callback)
    } catch (error) {
      throw await this.#tokenError(error)
    }
    const idToken = (token as Record<string, unknown>).id_token
    if (typeof idToken !== 'string') {
      throw new SocialLoginException('cannot_get_user_info', 'The provider answered no ID token')
    }
    return { ...token, idToken }
  }

  async #tokenError(error: unknown): Promise<unknown> {
    if (error instanceof SocialLoginException) return error
    const name = (error as { name?: string; code?: string })?.name
    const code = (error as { code?: string })?.code
    if (code === 'E_OAUTH_STATE_MISMATCH')
      return new SocialLoginException('invalid_token', 'The state differs', { cause: error })
    if (code === 'E_OAUTH_MISSING_CODE') {
      // The provider answered an error (or no code), or the PKCE verifier is gone with the state cookie.
      if (!this.hasError())
        return new SocialLoginException('expired_token', 'The sign-in has no verifier', {
          cause: error,
        })
      return new SocialLoginException(
        this.accessDenied() ? 'access_denied' : 'invalid_token',
        undefined,
        { cause: error }
      )
    }
    if (name === 'HTTPError') {
      const response = (error as { response: Response }).response
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as { error?: unknown }
      if (body.error === 'invalid_grant')
        return new SocialLoginException('expired_token', undefined, { cause: error })
    }
    return new SocialLoginException('cannot_get_user_info', 'The token request failed', {
      cause: error,
    })
  }

  /** Verifies signature (JWKS), issuer, audience (and `azp` with several), expiry and nonce. `invalid_token` when any fails. */
  async verifyIdToken(idToken: string): Promise<OidcClaims> {
    const metadata = await this.metadata()
    let payload: OidcClaims
    try {
      const verified = await jwtVerify(idToken, keySet(metadata.jwks_uri), {
        audience: this.config.clientId,
        clockTolerance: 30,
      })
      payload = verified.payload as OidcClaims
    } catch (error) {
      throw new SocialLoginException('invalid_token', 'The ID token is not valid', { cause: error })
    }
    // OIDC Core 3.1.3.7: with several audiences, the authorized party must be this client.
    if (
      Array.isArray(payload.aud) &&
      payload.aud.length > 1 &&
      payload.azp !== this.config.clientId
    ) {
      throw new SocialLoginException('invalid_token', 'The ID token was issued to another party')
    }
    const acceptIssuer = this.config.acceptIssuer ?? ((claims, meta) => claims.iss === meta.issuer)
    if (typeof payload.iss !== 'string' || !acceptIssuer(payload, metadata)) {
      throw new SocialLoginException('invalid_token', 'The ID token has another issuer')
    }
    if (!this.config.nonce || payload.nonce !== this.config.nonce) {
      throw new SocialLoginException('invalid_token', 'The ID token nonce differs')
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new SocialLoginException('cannot_get_user_info', 'The ID token has no subject')
    }
    return payload
  }

  /** The userinfo claims (empty when the provider has no endpoint); `sub` must match when given. */
  protected async userinfo(accessToken: string | undefined, sub?: string): Promise<OidcClaims> {
    const metadata = await this.metadata()
    if (!metadata.userinfo_endpoint || !accessToken) return {}
    let claims: OidcClaims
    try {
      const response = await fetch(metadata.userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      })
      if (!response.ok) throw new Error(`userinfo answered ${response.status}`)
      claims = (await response.json()) as OidcClaims
    } catch (error) {
      throw new SocialLoginException('cannot_get_user_info', 'The userinfo request failed', {
        cause: error,
      })
    }
    if (sub !== undefined && claims.sub !== sub) {
      throw new SocialLoginException('invalid_token', 'The userinfo subject differs')
    }
    return claims
  }

  /** Ally's user from the merged claims (the ID token's win over userinfo's). */
  protected userFrom<Token extends Oauth2AccessToken>(
    claims: OidcClaims,
    token: Token
  ): AllyUserContract<Token> & { original: OidcClaims } {
    const email = text(claims.email) ?? null
    const configured = this.config.usernameClaim
      ? text(claims[this.config.usernameClaim])
      : undefined
    if (this.config.usernameClaim && !configured) {
      throw new SocialLoginException(
        'cannot_get_user_info',
        `The claim "${this.config.usernameClaim}" is missing`
      )
    }
    const nickName =
      configured ??
      text(claims.preferred_username) ??
      text(claims.name) ??
      email?.split('@')[0] ??
      String(claims.sub)
    // A provider that does not send the claim is trusted (the admin chose it); false is refused.
    const verified = this.config.emailVerified
      ? this.config.emailVerified(claims)
      : claims.email_verified !== false && claims.email_verified !== 'false'
    return {
      id: String(claims.sub),
      nickName,
      name: text(claims.name) ?? nickName,
      email,
      emailVerificationState: verified ? 'verified' : 'unverified',
      avatarUrl: text(claims.picture) ?? null,
      token,
      original: claims,
    }
  }

  /**
   * The signed-in user: code exchange, ID token verification (signature,
   * issuer, audience, expiry, nonce), then the userinfo claims.
   */
  async user(callback?: (request: ApiRequestContract) => void): Promise<OidcUser> {
    const token = await this.accessToken(callback)
    const idClaims = await this.verifyIdToken(token.idToken)
    const claims: OidcClaims = { ...(await this.userinfo(token.token, idClaims.sub!)), ...idClaims }
    return this.userFrom(claims, token)
  }

  /** The user of an access token (userinfo only: no ID token to verify). */
  async userFromToken(accessToken: string) {
    const claims = await this.userinfo(accessToken)
    if (typeof claims.sub !== 'string')
      throw new SocialLoginException('cannot_get_user_info', 'The userinfo answer has no subject')
    return this.userFrom(claims, { token: accessToken, type: 'bearer' as const })
  }

  accessDenied(): boolean {
    return this.getError() === 'access_denied'
  }
}

/**
 * The end-session URL of the provider at `discoveryUri` for a session signed
 * in with `idToken`, or null when the provider announces none.
 */
export async function endSessionUrl(
  discoveryUri: string,
  clientId: string,
  idToken: string,
  postLogoutRedirectUri: string
): Promise<string | null> {
  const metadata = await discover(discoveryUri)
  if (!metadata.end_session_endpoint) return null
  const url = new URL(metadata.end_session_endpoint)
  url.searchParams.set('id_token_hint', idToken)
  url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri)
  url.searchParams.set('client_id', clientId)
  return url.toString()
}
