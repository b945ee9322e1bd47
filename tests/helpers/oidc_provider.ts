/**
 * A REAL OpenID Connect provider for the social-login tests: `oidc-provider`
 * on 127.0.0.1 (random port) with one confidential client registered for
 * Tern's callback, its development login form (any password) and consent
 * granted automatically. Accounts are added by the test.
 *
 * ```ts
 * const idp = await startOidcProvider({ redirectUri: `${ternUrl}/api/oauth/callback/oidc` })
 * idp.addAccount('alice', { email: 'alice@example.com', email_verified: true, preferred_username: 'alice' })
 * // discovery: idp.discoveryUri, client: idp.clientId / idp.clientSecret
 * await idp.close()
 * ```
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/** Claims of a test account (besides `sub`, which is its id). */
export interface TestOidcClaims {
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
  [claim: string]: unknown
}

/** A running test provider. */
export interface TestOidcProvider {
  issuer: string
  discoveryUri: string
  clientId: string
  clientSecret: string
  /** Adds (or replaces) the account `sub`. */
  addAccount(sub: string, claims: TestOidcClaims): void
  close(): Promise<void>
}

/** Options of `startOidcProvider`. */
export interface StartOidcProviderOptions {
  /** Tern's callback URL(s). */
  redirectUris: string[]
  /** Where the provider may send the browser after sign-out. */
  postLogoutRedirectUris?: string[]
  clientId?: string
  clientSecret?: string
  /**
   * Replaces the issuer the provider announces in discovery and ID tokens,
   * e.g. Microsoft's `https://login.microsoftonline.com/{tenantid}/v2.0`.
   */
  issuer?: (origin: string) => string
  /** Path prefix of the provider's routes (`/tenant/v2.0`); default none. */
  mountPath?: string
  /** Extra claims per scope (`{ openid: ['tid'] }`), released next to the standard ones. */
  extraClaims?: Record<string, string[]>
}

/** Starts the provider; close it in teardown. */
export async function startOidcProvider(
  options: StartOidcProviderOptions
): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestOidcClaims>()
  const clientId = options.clientId ?? 'tern-test-client'
  const clientSecret = options.clientSecret ?? 'tern-test-secret-0123456789abcdef'
  let handler: ((req: any, res: any) => void) | undefined
  const server: Server = createServer((req, res) => handler?.(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const mountPath = options.mountPath ?? ''
  const issuer = options.issuer ? options.issuer(origin) : `${origin}${mountPath}`

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const claims = accounts.get(sub)
      if (!claims) return undefined
      return { accountId: sub, claims: async () => ({ sub, ...claims }) }
    },
    claims: {
      openid: ['sub', ...(options.extraClaims?.openid ?? [])],
      email: ['email', 'email_verified', ...(options.extraClaims?.email ?? [])],
      profile: ['preferred_username', 'name', ...(options.extraClaims?.profile ?? [])],
    },
    // Consent is granted at once: the tests drive the login form only.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['tern-test-cookie-key'] },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Grant: 600,
      Session: 600,
    },
    renderError(ctx, out) {
      ctx.type = 'json'
      ctx.body = out
    },
  })
  // oidc-provider warns about its development keys and interactions; that is what the tests use.
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider', error))
  const callback = provider.callback()
  handler = mountPath
    ? (req, res) => {
        // oidc-provider derives its mount path from originalUrl (as under Express).
        req.originalUrl = req.url
        if (req.url?.startsWith(mountPath)) req.url = req.url.slice(mountPath.length) || '/'
        callback(req, res)
      }
    : callback

  return {
    issuer,
    discoveryUri: `${origin}${mountPath}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    addAccount: (sub, claims) => accounts.set(sub, claims),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
