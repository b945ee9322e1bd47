/**
 * Drives a provider's Ally driver through one sign-in, under the contract of
 * #extensions/auth/types: the core keeps the only state cookie
 * (`oauth_<provider>_state`, see ./state_cookie) and hands the driver its
 * values, so any Ally OAuth 2 driver (built-in, own, or from npm) works
 * unchanged and writes no cookie of its own.
 *
 * Ally's `Oauth2Driver` reads the state and the PKCE verifier from cookies
 * in `loadState()` and writes them in `redirect()` / when building the URL;
 * this helper sets the same members instead (`stateCookieName`,
 * `stateCookieValue`, `codeVerifierCookieName`, `codeVerifierCookieValue`,
 * `getPkceCodeVerifierForRedirect`), which Ally declares `protected`.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { SocialLoginException } from '#extensions/auth/main'
import type {
  AllyDriver,
  AllyUser,
  AuthProviderContext,
  AuthProviderDefinition,
} from '#extensions/auth/main'
import type { PendingAuthorization } from '#services/oauth/oauth_state'
import { stateCookieName } from '#controllers/oauth/state_cookie'

/** The members of Ally's `Oauth2Driver` the core sets (protected in Ally's types). */
interface Oauth2DriverMembers {
  version: string
  stateCookieName: string
  stateParamName?: string
  stateCookieValue?: string
  codeVerifierCookieName?: string
  codeVerifierCookieValue?: string
  getPkceCodeVerifierForRedirect(): string | null
}

/** Errors of Ally / its HTTP client that mean "this code is used up or expired". */
const REFUSED_CODE_ERRORS = new Set(['invalid_grant', 'bad_verification_code'])

/**
 * Builds the driver of `definition` for this request and takes over its
 * state: the cookie name is the contract's, the values come from `pending`.
 * The `Set-Cookie` headers a driver's constructor adds (Ally's `loadState`
 * clears the driver's default state cookie) are dropped.
 */
async function adopt(
  ctx: HttpContext,
  definition: AuthProviderDefinition,
  context: AuthProviderContext,
  pending: PendingAuthorization
): Promise<AllyDriver & Oauth2DriverMembers> {
  const cookiesBefore = ctx.response.getHeader('set-cookie')
  const driver = (await definition.driver(ctx, context)) as AllyDriver & Oauth2DriverMembers
  ctx.response.removeHeader('set-cookie')
  if (cookiesBefore !== undefined) ctx.response.header('set-cookie', cookiesBefore)
  if (!driver || driver.version !== 'oauth2' || typeof driver.redirectUrl !== 'function') {
    throw new Error(`The driver of the "${definition.id}" provider is no Ally OAuth 2 driver`)
  }
  const pkce = definition.pkce !== false
  driver.stateCookieName = stateCookieName(definition.id)
  driver.stateCookieValue = pending.state
  // Ally turns PKCE on when the driver names a verifier cookie; the core keeps the verifier in its own cookie.
  driver.codeVerifierCookieName = pkce ? stateCookieName(definition.id) : undefined
  driver.codeVerifierCookieValue = pkce ? pending.codeVerifier : undefined
  driver.getPkceCodeVerifierForRedirect = () => (pkce ? pending.codeVerifier : null)
  return driver
}

/** The provider's authorization URL for the sign-in `pending` (its state, PKCE challenge, and the nonce of `context`). */
export async function authorizationUrl(
  ctx: HttpContext,
  definition: AuthProviderDefinition,
  context: AuthProviderContext,
  pending: PendingAuthorization
): Promise<string> {
  const driver = await adopt(ctx, definition, context, pending)
  return driver.redirectUrl((request) => {
    request.param(driver.stateParamName || 'state', pending.state)
  })
}

/** The `error` field of an OAuth error answer carried by an Ally / ky error, if any. */
async function oauthErrorOf(error: unknown): Promise<string | undefined> {
  if (!error || typeof error !== 'object') return undefined
  const cause = (error as { cause?: unknown }).cause
  if (
    cause &&
    typeof cause === 'object' &&
    typeof (cause as { error?: unknown }).error === 'string'
  ) {
    return (cause as { error: string }).error
  }
  const response = (error as { response?: unknown }).response
  if (response instanceof Response) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: unknown } | null
    if (body && typeof body.error === 'string') return body.error
  }
  return undefined
}

/**
 * The account at the provider for the callback of `pending` (the state was
 * checked by the caller): `driver.user()`. A `SocialLoginException` of the
 * driver passes through; a refused code is `expired_token`; any other
 * failure (token or user endpoint) is `cannot_get_user_info`.
 */
export async function providerUser(
  ctx: HttpContext,
  definition: AuthProviderDefinition,
  context: AuthProviderContext,
  pending: PendingAuthorization
): Promise<AllyUser> {
  const driver = await adopt(ctx, definition, context, pending)
  try {
    return await driver.user()
  } catch (error) {
    if (error instanceof SocialLoginException) throw error
    const oauthError = await oauthErrorOf(error)
    if (oauthError && REFUSED_CODE_ERRORS.has(oauthError)) {
      throw new SocialLoginException(
        'expired_token',
        `The provider refused the code: ${oauthError}`,
        { cause: error }
      )
    }
    throw new SocialLoginException(
      'cannot_get_user_info',
      'Reading the account at the provider failed',
      {
        cause: error,
      }
    )
  }
}
