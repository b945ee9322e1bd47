/**
 * A generic OpenID Connect driver: authorization code flow with PKCE (S256),
 * `state` and `nonce`; the ID token's signature is checked against the
 * provider's published keys (JWKS), with its issuer, audience, expiry and
 * nonce. Written with `fetch` and `jose` (see `#extensions/auth/types` for
 * why not Ally). Other OIDC-based providers (Microsoft) reuse it with
 * their own discovery URI and issuer rule.
 */
import { jwtVerify, type JWTPayload } from 'jose'
import { SocialLoginException } from '#extensions/auth/main'
import type {
  AuthorizationCallback,
  AuthorizationRequest,
  SocialAuthDriver,
  SocialProfile,
} from '#extensions/auth/main'
import { discover, keySet, PROVIDER_TIMEOUT_MS, type OidcProviderMetadata } from './discovery.js'

/** What the driver needs. */
export interface OidcDriverOptions {
  discoveryUri: string
  clientId: string
  clientSecret: string
  scope: string
  /** Claim naming the user; empty: preferred_username, name, the e-mail's local part, sub. */
  usernameClaim?: string
  /** Offer the end-session URL at sign-out. */
  signOut?: boolean
  /** Absolute redirect URI (Tern's callback). */
  callbackUrl: string
  /**
   * Whether the ID token's `iss` is acceptable (`claims` are the verified
   * token's). Default: equal to the discovery document's `issuer`
   * (multi-tenant providers such as Microsoft `common` answer a template
   * and override this).
   */
  acceptIssuer?: (claims: JWTPayload & Record<string, unknown>, metadata: OidcProviderMetadata) => boolean
  /** Whether the provider vouches for the e-mail of these claims (default: `email_verified` is not false). */
  emailVerified?: (claims: JWTPayload & Record<string, unknown>) => boolean
}

/** Claims of an ID token / userinfo answer that the driver reads. */
type Claims = JWTPayload & Record<string, unknown>

/** Scopes with `openid` included. */
function scopesOf(scope: string): string {
  const scopes = scope.split(/\s+/).filter(Boolean)
  if (!scopes.includes('openid')) scopes.unshift('openid')
  return scopes.join(' ')
}

/** See the module comment. */
export class OidcDriver implements SocialAuthDriver {
  constructor(protected options: OidcDriverOptions) {}

  /** The discovery document; a provider that cannot be reached is the `default` error. */
  protected async metadata(): Promise<OidcProviderMetadata> {
    if (!this.options.discoveryUri || !this.options.clientId) {
      throw new Error('The OpenID Connect provider is not configured (discovery URI and client id)')
    }
    return discover(this.options.discoveryUri)
  }

  async authorizationUrl(request: AuthorizationRequest): Promise<string> {
    const metadata = await this.metadata()
    const url = new URL(metadata.authorization_endpoint)
    url.searchParams.set('response_type', 'code')
    url.searchParams.set('client_id', this.options.clientId)
    url.searchParams.set('redirect_uri', this.options.callbackUrl)
    url.searchParams.set('scope', scopesOf(this.options.scope))
    url.searchParams.set('state', request.state)
    url.searchParams.set('nonce', request.nonce)
    url.searchParams.set('code_challenge', request.codeChallenge)
    url.searchParams.set('code_challenge_method', 'S256')
    return url.toString()
  }

  async profile(callback: AuthorizationCallback): Promise<SocialProfile> {
    const metadata = await this.metadata()
    const tokens = await this.exchange(metadata, callback)
    const idClaims = await this.verifyIdToken(metadata, tokens.id_token, callback.nonce)
    const claims: Claims = { ...(await this.userinfo(metadata, tokens.access_token, idClaims.sub!)), ...idClaims }
    return this.profileFrom(claims, tokens.id_token)
  }

  /** The code exchange (client_secret_basic unless only client_secret_post is offered). */
  protected async exchange(
    metadata: OidcProviderMetadata,
    callback: AuthorizationCallback
  ): Promise<{ id_token: string; access_token?: string }> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.code,
      redirect_uri: this.options.callbackUrl,
      code_verifier: callback.codeVerifier,
    })
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'accept': 'application/json',
    }
    const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
    if (!methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
      body.set('client_id', this.options.clientId)
      body.set('client_secret', this.options.clientSecret)
    } else {
      const user = encodeURIComponent(this.options.clientId)
      const secret = encodeURIComponent(this.options.clientSecret)
      headers.authorization = `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
    }
    let answer: Record<string, unknown>
    try {
      const response = await fetch(metadata.token_endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      })
      answer = (await response.json()) as Record<string, unknown>
      if (!response.ok) {
        // An expired or replayed code.
        if (answer.error === 'invalid_grant') throw new SocialLoginException('expired_token')
        throw new Error(`token endpoint answered ${response.status} ${String(answer.error ?? '')}`)
      }
    } catch (error) {
      if (error instanceof SocialLoginException) throw error
      throw new SocialLoginException('cannot_get_user_info', 'The token request failed', { cause: error })
    }
    if (typeof answer.id_token !== 'string') {
      throw new SocialLoginException('cannot_get_user_info', 'The provider answered no ID token')
    }
    return {
      id_token: answer.id_token,
      access_token: typeof answer.access_token === 'string' ? answer.access_token : undefined,
    }
  }

  /** Verifies signature (JWKS), issuer, audience, expiry and nonce. `invalid_token` when any fails. */
  protected async verifyIdToken(metadata: OidcProviderMetadata, idToken: string, nonce: string): Promise<Claims> {
    let payload: Claims
    try {
      const verified = await jwtVerify(idToken, keySet(metadata.jwks_uri), {
        audience: this.options.clientId,
        clockTolerance: 30,
      })
      payload = verified.payload as Claims
    } catch (error) {
      throw new SocialLoginException('invalid_token', 'The ID token is not valid', { cause: error })
    }
    const acceptIssuer = this.options.acceptIssuer ?? ((claims, meta) => claims.iss === meta.issuer)
    if (typeof payload.iss !== 'string' || !acceptIssuer(payload, metadata)) {
      throw new SocialLoginException('invalid_token', 'The ID token has another issuer')
    }
    if (payload.nonce !== nonce) throw new SocialLoginException('invalid_token', 'The ID token nonce differs')
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new SocialLoginException('cannot_get_user_info', 'The ID token has no subject')
    }
    return payload
  }

  /** The userinfo claims (empty when the provider has no endpoint); `sub` must match. */
  protected async userinfo(metadata: OidcProviderMetadata, accessToken: string | undefined, sub: string) {
    if (!metadata.userinfo_endpoint || !accessToken) return {}
    let claims: Claims
    try {
      const response = await fetch(metadata.userinfo_endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      })
      if (!response.ok) throw new Error(`userinfo answered ${response.status}`)
      claims = (await response.json()) as Claims
    } catch (error) {
      throw new SocialLoginException('cannot_get_user_info', 'The userinfo request failed', { cause: error })
    }
    if (claims.sub !== sub) throw new SocialLoginException('invalid_token', 'The userinfo subject differs')
    return claims
  }

  /** The profile from the merged claims. */
  protected profileFrom(claims: Claims, idToken: string): SocialProfile {
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)
    const email = text(claims.email) ?? null
    const configured = this.options.usernameClaim ? text(claims[this.options.usernameClaim]) : undefined
    if (this.options.usernameClaim && !configured) {
      throw new SocialLoginException('cannot_get_user_info', `The claim "${this.options.usernameClaim}" is missing`)
    }
    const username =
      configured ?? text(claims.preferred_username) ?? text(claims.name) ?? email?.split('@')[0] ?? claims.sub!
    return {
      id: claims.sub!,
      username,
      email,
      // A provider that does not send the claim is trusted (the admin chose it); false is refused.
      emailVerified: this.options.emailVerified
        ? this.options.emailVerified(claims)
        : claims.email_verified !== false && claims.email_verified !== 'false',
      // Kept with the session only for the sign-out at the provider (so only when that is on).
      idToken: this.options.signOut ? idToken : null,
    }
  }

  async signOutUrl(idToken: string, postLogoutRedirectUri: string): Promise<string | null> {
    if (!this.options.signOut) return null
    const metadata = await this.metadata()
    if (!metadata.end_session_endpoint) return null
    const url = new URL(metadata.end_session_endpoint)
    url.searchParams.set('id_token_hint', idToken)
    url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri)
    url.searchParams.set('client_id', this.options.clientId)
    return url.toString()
  }
}
