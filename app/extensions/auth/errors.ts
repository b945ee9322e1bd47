/** Coded errors of the auth-provider extension point. */
import { createError } from '@adonisjs/core/exceptions'

/** A second provider was registered under an id that is taken. */
export const E_AUTH_PROVIDER_EXISTS = createError<[id: string]>(
  'An auth provider with id "%s" is already registered',
  'E_AUTH_PROVIDER_EXISTS',
  500
)

/** The provider id is not registered (answered as 404 by the sign-in routes). */
export const E_AUTH_PROVIDER_UNKNOWN = createError<[id: string]>(
  'Auth provider "%s" is not registered',
  'E_AUTH_PROVIDER_UNKNOWN',
  404
)

/** The definition lacks a field or has an invalid id. */
export const E_AUTH_PROVIDER_INVALID = createError<[id: string, reason: string]>(
  'Auth provider "%s" is invalid: %s',
  'E_AUTH_PROVIDER_INVALID',
  500
)

/** The error codes of the social-login error page (`/error?error=<code>`). */
export const SOCIAL_LOGIN_ERROR_CODES = [
  'default',
  'access_denied',
  'expired_token',
  'invalid_token',
  'no_user',
  'no_email',
  'already_linked',
  'not_linked',
  'unverified_account',
  'discord_guild_permission_denied',
  'cannot_get_user_info',
  'user_not_allowed',
  // Tern's own: the public address is not confirmed yet, so there is no redirect URI to give a provider.
  'app_url_unconfirmed',
] as const

/** One code of `SOCIAL_LOGIN_ERROR_CODES`. */
export type SocialLoginErrorCode = (typeof SOCIAL_LOGIN_ERROR_CODES)[number]

/**
 * A failure of the social-login flow that the user sees on `/error` with its
 * code. Drivers throw it (`new SocialLoginException('unverified_account')`);
 * the callback turns it into `302 /error?error=<code>&redirect=...&params=<provider>`.
 */
export class SocialLoginException extends Error {
  constructor(
    public readonly errorCode: SocialLoginErrorCode,
    message?: string,
    options?: { cause?: unknown }
  ) {
    super(message ?? `Social login failed: ${errorCode}`, options)
    this.name = 'SocialLoginException'
  }
}
