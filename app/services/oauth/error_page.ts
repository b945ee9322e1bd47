/**
 * The social-login error page `/error?error=<code>&redirect=<path>&params=<provider>`
 * (codes: SOCIAL_LOGIN_ERROR_CODES): its query, checked. An unknown code shows `default`; the
 * back link is a local path only (no open redirect); the provider is shown
 * by its display name from the registry ("OpenID Connect" for oidc).
 */
import {
  authProviders,
  SOCIAL_LOGIN_ERROR_CODES,
  type SocialLoginErrorCode,
} from '#extensions/auth/main'

/** A local path to go back to, else the sign-in page (same rule as the sign-in page's `redirect`). */
function localPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/auth/signIn'
  // eslint-disable-next-line no-control-regex -- a redirect target must not carry control characters
  if (value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f]/.test(value))
    return '/auth/signIn'
  return value
}

/** The props of the error page. */
export interface SocialErrorPageProps {
  code: SocialLoginErrorCode
  redirect: string
  /** The provider's display name ("" when none was given). */
  provider: string
}

/** The display name of provider `id`: the registered one, else the id capitalised. */
export function providerDisplayName(id: string): string {
  if (authProviders.has(id)) return authProviders.get(id).displayName
  return id.charAt(0).toUpperCase() + id.slice(1)
}

/** The page's props from its query string. */
export function socialErrorPage(query: Record<string, unknown>): SocialErrorPageProps {
  const code = (SOCIAL_LOGIN_ERROR_CODES as readonly string[]).includes(String(query.error))
    ? (query.error as SocialLoginErrorCode)
    : 'default'
  const param =
    typeof query.params === 'string' ? query.params.split(',')[0].replace(/^provider_/, '') : ''
  const provider = /^[a-z][a-z0-9-]{0,40}$/.test(param) ? providerDisplayName(param) : ''
  return { code, redirect: localPath(query.redirect), provider }
}
