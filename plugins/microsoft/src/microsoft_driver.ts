/**
 * The Microsoft (Entra ID / personal accounts) Ally driver: the `oidc`
 * plugin's `OidcDriver` (an Ally `Oauth2Driver`) on the tenant's v2.0
 * discovery document.
 *
 * - The tenant (`oauth.microsoft-tenant`) must be `common`, `organizations`,
 *   `consumers`, a domain name or a GUID; another value fails the sign-in
 *   (`default`) before any request.
 * - Multi-tenant discovery documents announce the issuer
 *   `https://login.microsoftonline.com/{tenantid}/v2.0`: the ID token's `iss`
 *   must equal it with `{tenantid}` replaced by the token's `tid`.
 * - Microsoft's `email` claim is not verified in general (the "nOAuth"
 *   account takeover): it counts as verified only for personal accounts
 *   (the consumers tenant) or with `xms_edov` (domain owner verified), so
 *   other accounts cannot be matched or created by e-mail.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { JWTPayload } from 'jose'
import { OidcDriver, type OidcProviderMetadata } from '#plugins/oidc/index'
import { microsoftDiscoveryUri } from './endpoints.js'

/** The tenant id of personal Microsoft accounts. */
export const CONSUMERS_TENANT_ID = '9188040d-6c67-4c5b-b112-36a304b66dad'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

/** Whether `tenant` is common, organizations, consumers, a domain name or a GUID. */
export function isValidTenant(tenant: string): boolean {
  return (
    ['common', 'organizations', 'consumers'].includes(tenant) ||
    GUID.test(tenant) ||
    DOMAIN.test(tenant)
  )
}

/** What the driver needs. */
export interface MicrosoftDriverOptions {
  tenant: string
  clientId: string
  clientSecret: string
  callbackUrl: string
  /** The nonce of this sign-in (the core's `context.nonce`). */
  nonce: string
}

type Claims = JWTPayload & Record<string, unknown>

/** The issuer rule of the v2.0 endpoint (see the module comment). */
export function acceptMicrosoftIssuer(claims: Claims, metadata: OidcProviderMetadata): boolean {
  if (!metadata.issuer.includes('{tenantid}')) return claims.iss === metadata.issuer
  return (
    typeof claims.tid === 'string' &&
    GUID.test(claims.tid) &&
    claims.iss === metadata.issuer.replace('{tenantid}', claims.tid)
  )
}

/** Whether Microsoft vouches for the e-mail claim (see the module comment). */
export function microsoftEmailVerified(claims: Claims): boolean {
  return (
    claims.tid === CONSUMERS_TENANT_ID ||
    claims.xms_edov === true ||
    claims.xms_edov === 'true' ||
    claims.xms_edov === 1
  )
}

/** See the module comment. Throws for an invalid tenant (before any request). */
export class MicrosoftDriver extends OidcDriver {
  protected stateCookieName = 'microsoft_oauth_state'

  constructor(ctx: HttpContext, options: MicrosoftDriverOptions) {
    const tenant = options.tenant.trim() || 'common'
    if (!isValidTenant(tenant)) throw new Error(`Invalid Microsoft tenant "${tenant}"`)
    super(ctx, {
      discoveryUri: microsoftDiscoveryUri(tenant),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      callbackUrl: options.callbackUrl,
      nonce: options.nonce,
      scope: 'openid email profile',
      acceptIssuer: acceptMicrosoftIssuer,
      emailVerified: microsoftEmailVerified,
    })
  }
}
