/**
 * Helpers for OAuth 2 drivers of sign-in providers (plugins import them from
 * `#extensions/auth/oauth2`): the authorization-code exchange and JSON
 * calls with a Bearer token, with a time limit and the error codes of the
 * social-login error page.
 */
import { SocialLoginException } from './errors.js'

/** Time limit of every request to a provider. */
export const OAUTH2_TIMEOUT_MS = 10_000

/** What `exchangeCode` needs. */
export interface CodeExchange {
  tokenEndpoint: string
  clientId: string
  clientSecret: string
  code: string
  redirectUri: string
  /** Sent when the provider supports PKCE. */
  codeVerifier?: string
  /** `basic` (HTTP Basic, the default) or `post` (credentials in the form). */
  clientAuth?: 'basic' | 'post'
}

/**
 * POSTs the code to the token endpoint and answers its JSON. `invalid_grant`
 * (a used or expired code) is `expired_token`; any other failure, or no
 * `access_token`, is `cannot_get_user_info`.
 */
export async function exchangeCode(exchange: CodeExchange): Promise<Record<string, unknown> & { access_token: string }> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
  })
  if (exchange.codeVerifier) body.set('code_verifier', exchange.codeVerifier)
  const headers: Record<string, string> = {
    'accept': 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  }
  if (exchange.clientAuth === 'post') {
    body.set('client_id', exchange.clientId)
    body.set('client_secret', exchange.clientSecret)
  } else {
    const credentials = `${encodeURIComponent(exchange.clientId)}:${encodeURIComponent(exchange.clientSecret)}`
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`
  }
  let answer: Record<string, unknown>
  try {
    const response = await fetch(exchange.tokenEndpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(OAUTH2_TIMEOUT_MS),
    })
    answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok && answer.error !== 'invalid_grant') {
      throw new Error(`token endpoint answered ${response.status} ${String(answer.error ?? '')}`)
    }
  } catch (error) {
    throw new SocialLoginException('cannot_get_user_info', 'The token request failed', { cause: error })
  }
  if (answer.error === 'invalid_grant') throw new SocialLoginException('expired_token')
  if (typeof answer.access_token !== 'string') {
    throw new SocialLoginException('cannot_get_user_info', 'The provider answered no access token')
  }
  return answer as Record<string, unknown> & { access_token: string }
}

/** GETs JSON with the access token; any failure is `cannot_get_user_info`. */
export async function fetchWithToken<T>(url: string, accessToken: string, headers: Record<string, string> = {}): Promise<T> {
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json', authorization: `Bearer ${accessToken}`, ...headers },
      signal: AbortSignal.timeout(OAUTH2_TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    return (await response.json()) as T
  } catch (error) {
    throw new SocialLoginException('cannot_get_user_info', `Fetching ${url} failed`, { cause: error })
  }
}
