/**
 * The session answers of the sign-in routes (`/api/auth/*`): the tokens of
 * a new or refreshed session as the JSON body shows them (the same tokens
 * also go into the session cookies). Never the session id or its end.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'
import type { SessionTokens } from '#services/auth/session_service'
import UserTransformer from '#transformers/user_transformer'
import type {
  ChangePasswordResponse,
  RefreshResponse,
  SignUpResponse,
  TokensResponse,
} from '#api/auth'

export type { ChangePasswordResponse, RefreshResponse, SignUpResponse, TokensResponse }

/** Turns `SessionTokens` into the bodies of the sign-in routes. */
export default class SessionTransformer extends BaseTransformer<SessionTokens> {
  /** `{accessToken, refreshToken}`. */
  toObject(): TokensResponse {
    return { accessToken: this.resource.accessToken, refreshToken: this.resource.refreshToken }
  }

  /** `{accessToken, refreshToken}` for a response body (sign-in, TOTP sign-in). */
  static toJSON(tokens: SessionTokens): TokensResponse {
    return new SessionTransformer(tokens).toObject()
  }

  /** `{accessToken, refreshToken, user}`: the answer of a sign-up. */
  static signUpJSON(tokens: SessionTokens, user: User): SignUpResponse {
    return { ...SessionTransformer.toJSON(tokens), user: UserTransformer.toJSON(user) }
  }

  /** `{accessToken}`: the answer of a refresh. */
  static refreshJSON(tokens: Pick<SessionTokens, 'accessToken'>): RefreshResponse {
    return { accessToken: tokens.accessToken }
  }

  /** `{refreshToken}`: the answer of a password change. */
  static passwordChangedJSON(tokens: Pick<SessionTokens, 'refreshToken'>): ChangePasswordResponse {
    return { refreshToken: tokens.refreshToken }
  }
}
