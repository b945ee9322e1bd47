/**
 * OpenID Connect discovery (`/.well-known/openid-configuration`) and the
 * provider's signing keys, cached per URL so a sign-in does not fetch them
 * every time. A changed discovery URI (admin panel) is simply another cache
 * entry; entries expire after `DISCOVERY_TTL_MS`.
 */
import { createRemoteJWKSet } from 'jose'

/** The fields of a discovery document the driver uses. */
export interface OidcProviderMetadata {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  userinfo_endpoint?: string
  end_session_endpoint?: string
  token_endpoint_auth_methods_supported?: string[]
  code_challenge_methods_supported?: string[]
}

/** How long a discovery document is reused. */
export const DISCOVERY_TTL_MS = 10 * 60 * 1000

/** Time limit of every request to the provider. */
export const PROVIDER_TIMEOUT_MS = 10_000

const documents = new Map<string, { at: number; metadata: Promise<OidcProviderMetadata> }>()
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

async function fetchMetadata(uri: string): Promise<OidcProviderMetadata> {
  const response = await fetch(uri, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`OIDC discovery ${uri} answered ${response.status}`)
  const metadata = (await response.json()) as Partial<OidcProviderMetadata>
  for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    if (typeof metadata[field] !== 'string' || metadata[field] === '') {
      throw new Error(`OIDC discovery ${uri} lacks ${field}`)
    }
  }
  return metadata as OidcProviderMetadata
}

/** The discovery document at `uri` (cached; a failed fetch is not cached). */
export function discover(uri: string): Promise<OidcProviderMetadata> {
  const cached = documents.get(uri)
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.metadata
  const metadata = fetchMetadata(uri)
  documents.set(uri, { at: Date.now(), metadata })
  metadata.catch(() => documents.delete(uri))
  return metadata
}

/** The provider's key set at `jwksUri` (jose fetches and refreshes it on unknown key ids). */
export function keySet(jwksUri: string): ReturnType<typeof createRemoteJWKSet> {
  let keys = keySets.get(jwksUri)
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: PROVIDER_TIMEOUT_MS })
    keySets.set(jwksUri, keys)
  }
  return keys
}

/** Forgets every cached document and key set (tests restart providers on new ports). */
export function clearDiscoveryCache(): void {
  documents.clear()
  keySets.clear()
}
