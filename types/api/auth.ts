/**
 * The answers of the sign-in routes (`/api/auth/*`), shared by the server
 * (its transformers return them) and the browser code (`#api/auth`).
 * Plain types only: this folder imports nothing from the server or the browser.
 */
import type { PublicUser } from './user.js'

/** The tokens of a session: `POST /api/auth/signIn` and `/api/auth/signIn/totp`. */
export interface TokensResponse {
  accessToken: string
  refreshToken: string
}

/** `POST /api/auth/signUp`: the session's tokens and the new user. */
export interface SignUpResponse extends TokensResponse {
  user: PublicUser
}

/** `POST /api/auth/signIn`: tokens, or a login token when a TOTP code is needed. */
export type SignInResponse = TokensResponse | { loginToken: string }

/** `POST /api/auth/token`: the new access token (the refresh token rotates in its cookie). */
export interface RefreshResponse {
  accessToken: string
}

/** `PATCH /api/auth/password`: the new session's refresh token. */
export interface ChangePasswordResponse {
  refreshToken: string
}

/** `POST /api/auth/signOut`, when the provider's sign-out applies (OIDC sessions). */
export interface SignOutResponse {
  redirectURI: string
}

/** `POST /api/auth/totp/enable`: the new secret, its provisioning URI and QR code. */
export interface TotpEnableResponse {
  totpAuthUrl: string
  totpSecret: string
  /** A `data:image/png;base64,...` URL. */
  qrCode: string
}
