/**
 * The Google driver: Ally's built-in `GoogleDriver` (authorization code with
 * `state`; the core adds PKCE), scopes `openid email profile`, the account
 * from the OpenID userinfo endpoint (`sub`, `email`, `email_verified`,
 * `name`), read directly from Google over TLS, so trusted (OpenID Connect
 * Core §3.1.3.7). It also sends the sign-in's `nonce`. Tern's rule: the
 * e-mail counts as verified only for `email_verified` true (or "true"; Ally
 * would take any truthy value).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { GoogleDriver } from '@adonisjs/ally/drivers/google'
import type {
  GoogleDriverConfig,
  GoogleScopes,
  RedirectRequestContract,
} from '@adonisjs/ally/types'
import type { AllyUser, SocialProfile } from '#extensions/auth/main'
import { googleEndpoints } from './endpoints.js'

/** What the driver needs beyond the endpoints. */
export interface GoogleDriverOptions {
  clientId: string
  clientSecret: string
  callbackUrl: string
  /** The sign-in's nonce (`AuthProviderContext.nonce`). */
  nonce: string
}

/** Ally's configuration for `options`, with the endpoints of `googleEndpoints` (read now). */
export function googleDriverConfig(options: GoogleDriverOptions): GoogleDriverConfig {
  if (!options.clientId) throw new Error('The Google provider has no client id')
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    callbackUrl: options.callbackUrl,
    authorizeUrl: googleEndpoints.authorize,
    accessTokenUrl: googleEndpoints.token,
    userInfoUrl: googleEndpoints.userinfo,
    scopes: ['openid', 'email', 'profile'],
    prompt: 'select_account',
  }
}

/** See the module comment. */
export class TernGoogleDriver extends GoogleDriver {
  #nonce: string

  constructor(ctx: HttpContext, options: GoogleDriverOptions) {
    super(ctx, googleDriverConfig(options))
    this.#nonce = options.nonce
  }

  protected configureRedirectRequest(request: RedirectRequestContract<GoogleScopes>) {
    super.configureRedirectRequest(request)
    if (this.#nonce) request.param('nonce', this.#nonce)
  }
}

/** The profile of a Google user (see the module comment for the e-mail rule). */
export function googleProfile(user: AllyUser): SocialProfile {
  const info = (user.original ?? {}) as Record<string, unknown>
  const sub = typeof info.sub === 'string' ? info.sub : ''
  const email = typeof info.email === 'string' && info.email ? info.email : null
  return {
    id: sub,
    username: (typeof info.name === 'string' && info.name) || email?.split('@')[0] || sub,
    email,
    emailVerified: info.email_verified === true || info.email_verified === 'true',
  }
}
