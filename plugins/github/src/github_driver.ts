/**
 * The GitHub driver (OAuth app): authorization code with `state` and PKCE,
 * then the account (`GET /user`) and its e-mail addresses
 * (`GET /user/emails`, scope `user:email`). The e-mail used is the primary
 * one; it must be verified (`unverified_account` otherwise).
 */
import { SocialLoginException } from '#extensions/auth/main'
import type {
  AuthorizationCallback,
  AuthorizationRequest,
  SocialAuthDriver,
  SocialProfile,
} from '#extensions/auth/main'
import { githubEndpoints } from './endpoints.js'

/** Time limit of every request to GitHub. */
const TIMEOUT_MS = 10_000

/** What the driver needs. */
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

/** See the module comment. */
export class GithubDriver implements SocialAuthDriver {
  constructor(protected options: GithubDriverOptions) {}

  authorizationUrl(request: AuthorizationRequest): string {
    if (!this.options.clientId) throw new Error('The GitHub provider has no client id')
    const url = new URL(`${githubEndpoints.oauth}/login/oauth/authorize`)
    url.searchParams.set('client_id', this.options.clientId)
    url.searchParams.set('redirect_uri', this.options.callbackUrl)
    url.searchParams.set('scope', 'read:user user:email')
    url.searchParams.set('state', request.state)
    url.searchParams.set('code_challenge', request.codeChallenge)
    url.searchParams.set('code_challenge_method', 'S256')
    url.searchParams.set('allow_signup', 'false')
    return url.toString()
  }

  async profile(callback: AuthorizationCallback): Promise<SocialProfile> {
    const token = await this.#exchange(callback)
    const user = await this.#api<{ id: number | string; login: string }>('/user', token)
    const emails = await this.#api<GithubEmail[]>('/user/emails', token)
    if (user.id === undefined || user.id === null || !user.login) {
      throw new SocialLoginException('cannot_get_user_info')
    }
    const primary = Array.isArray(emails) ? emails.find((email) => email.primary) : undefined
    return {
      id: String(user.id),
      username: user.login,
      email: primary?.email ?? null,
      emailVerified: primary?.verified === true,
    }
  }

  async #exchange(callback: AuthorizationCallback): Promise<string> {
    let answer: Record<string, unknown>
    try {
      const response = await fetch(`${githubEndpoints.oauth}/login/oauth/access_token`, {
        method: 'POST',
        headers: { 'accept': 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: this.options.clientId,
          client_secret: this.options.clientSecret,
          code: callback.code,
          redirect_uri: this.options.callbackUrl,
          code_verifier: callback.codeVerifier,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      if (!response.ok) throw new Error(`GitHub token endpoint answered ${response.status}`)
      answer = (await response.json()) as Record<string, unknown>
    } catch (error) {
      throw new SocialLoginException('cannot_get_user_info', 'The GitHub token request failed', { cause: error })
    }
    // GitHub answers 200 with `error` for a wrong, used or expired code.
    if (answer.error === 'bad_verification_code') throw new SocialLoginException('expired_token')
    if (typeof answer.access_token !== 'string') {
      throw new SocialLoginException('cannot_get_user_info', `GitHub refused the code: ${String(answer.error)}`)
    }
    return answer.access_token
  }

  async #api<T>(path: string, token: string): Promise<T> {
    try {
      const response = await fetch(`${githubEndpoints.api}${path}`, {
        headers: {
          'accept': 'application/vnd.github+json',
          'authorization': `Bearer ${token}`,
          'user-agent': 'Tern',
          'x-github-api-version': '2022-11-28',
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`)
      return (await response.json()) as T
    } catch (error) {
      throw new SocialLoginException('cannot_get_user_info', `GitHub ${path} failed`, { cause: error })
    }
  }
}
