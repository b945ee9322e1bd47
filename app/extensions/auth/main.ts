/**
 * The auth-provider extension point's public surface: the process-wide
 * registry (also bound as `tern.auth_providers`) and its types.
 */
import { AuthProviderRegistry } from './auth_provider_registry.js'

/** The application's auth-provider registry. */
export const authProviders = new AuthProviderRegistry()

export { AuthProviderRegistry } from './auth_provider_registry.js'
export * as authProviderErrors from './errors.js'
export type * from './types.js'
export { signInSettings, type SignInSettingsOptions } from './settings.js'
export {
  SocialLoginException,
  SOCIAL_LOGIN_ERROR_CODES,
  type SocialLoginErrorCode,
} from './errors.js'
export {
  passwordVerifiers,
  PasswordVerifierRegistry,
  E_PASSWORD_VERIFIER_UNAVAILABLE,
  type PasswordVerifier,
  type VerifiedIdentity,
} from './password_verifiers.js'
