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
