/**
 * Drives a provider's Ally driver through one sign-in, under the contract of
 * #extensions/auth/types: the core keeps the only state cookie
 * (`oauth_<provider>_state`, see ./state_cookie) and hands the driver its
 * values, so any Ally OAuth 2 driver (built-in, own, or from npm) works
 * unchanged and writes no cookie of its own.
 *
 * The authorization URL comes from Ally's public `redirectUrl()`, with the
 * `state` and the PKCE (S256) challenge added as parameters.
 *
 * At the callback Ally has no public way in: `Oauth2Driver` takes the state
 * and the PKCE verifier only from its protected members
 * `stateCookieValue` (checked against the callback's `state`, and sent at
 * the token exchange by Ally's GitHub and Discord drivers),
 * `codeVerifierCookieName` (set: PKCE is on) and `codeVerifierCookieValue`
 * (the verifier it sends), which its `loadState()` fills from Ally's own
 * cookies. `adoptPendingAuthorization` sets those three instead. That is why
 * `@adonisjs/ally` is pinned to one exact version in package.json, and
 * tests/unit/oauth/ally_internals.spec.ts fails, naming the member, when the
 * installed Ally no longer works that way.
 */
import { createHash } from 'node:crypto'
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

/**
 * The members of Ally's `Oauth2Driver` (protected in Ally's types) the core
 * sets; tests/unit/oauth/ally_internals.spec.ts checks that the installed
 * Ally still reads them this way.
 */
interface Oauth2DriverMembers {
  stateCookieValue?: string
  codeVerifierCookieName?: string
  codeVerifierCookieValue?: string
}

/**
 * Gives `driver` the state and PKCE verifier of a sign-in, as Ally's
 * `loadState()` would from its own cookies: `state` (undefined before the
 * redirect) and `verifier`, or `null` to turn Ally's PKCE off. Off at the
 * redirect, where the challenge is the core's: a driver with PKCE of its own
 * (Ally's `TwitterXDriver`) would otherwise make a verifier of its own and
 * keep it in a cookie of its own. `cookieName` only switches Ally's PKCE on;
 * Ally reads no cookie after the driver's constructor.
 */
export function adoptPendingAuthorization(
  driver: AllyDriver,
  cookieName: string,
  state: string | undefined,
  verifier: string | null
) {
  const members = driver as unknown as Oauth2DriverMembers
  members.stateCookieValue = state
  members.codeVerifierCookieName = verifier === null ? undefined : cookieName
  members.codeVerifierCookieValue = verifier === null ? undefined : verifier
}

/** The S256 code challenge of `verifier` (RFC 7636, section 4.2). */
function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

/**
 * Builds the driver of `definition` for this request. The `Set-Cookie`
 * headers a driver's constructor adds (Ally's `loadState` clears the
 * driver's default state cookie) are dropped.
 */
async function build(
  ctx: HttpContext,
  definition: AuthProviderDefinition,
  context: AuthProviderContext
): Promise<AllyDriver> {
  const cookiesBefore = ctx.response.getHeader('set-cookie')
  const driver = await definition.driver(ctx, context)
  ctx.response.removeHeader('set-cookie')
  if (cookiesBefore !== undefined) ctx.response.header('set-cookie', cookiesBefore)
  if (!driver || driver.version !== 'oauth2' || typeof driver.redirectUrl !== 'function') {
    throw new Error(`The driver of the "${definition.id}" provider is no Ally OAuth 2 driver`)
  }
  return driver
}

/** The provider's authorization URL for the sign-in `pending` (its state, PKCE challenge, and the nonce of `context`). */
export async function authorizationUrl(
  ctx: HttpContext,
  definition: AuthProviderDefinition,
  context: AuthProviderContext,
  pending: PendingAuthorization
): Promise<string> {
  const driver = await build(ctx, definition, context)
  // The challenge is the core's (below), never one of a driver with PKCE of its own.
  adoptPendingAuthorization(driver, stateCookieName(definition.id), undefined, null)
  return driver.redirectUrl((request) => {
    // `state` is the name OauthService.callback reads back.
    request.param('state', pending.state)
    if (definition.pkce !== false) {
      request.param('code_challenge', codeChallenge(pending.codeVerifier))
      request.param('code_challenge_method', 'S256')
    }
  })
}

/** Errors of Ally / its HTTP client that mean "this code is used up or expired". */
const REFUSED_CODE_ERRORS = new Set(['invalid_grant', 'bad_verification_code'])

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
  const driver = await build(ctx, definition, context)
  adoptPendingAuthorization(
    driver,
    stateCookieName(definition.id),
    pending.state,
    definition.pkce === false ? null : pending.codeVerifier
  )
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
