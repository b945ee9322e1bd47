/**
 * Personal API tokens (a Tern addition, `/api/users/me/apiTokens`), shared
 * by the server (ApiTokenTransformer) and the browser code (`#api/api_token`).
 * Plain types only: this folder imports nothing from the server or the browser.
 */

/** A personal API token as listed (never the secret). Dates are ISO 8601 (UTC). */
export interface ApiTokenInfo {
  id: string
  name: string
  /** The token's first characters (`tern_` and 7 more), to tell tokens apart. */
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  /** null = never expires. */
  expiresAt: string | null
}

/** `POST /api/users/me/apiTokens`: the listed view plus the token itself, shown this once. */
export interface CreatedApiToken extends ApiTokenInfo {
  token: string
}
