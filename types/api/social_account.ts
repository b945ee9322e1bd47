/**
 * Linked social-login accounts (`GET /api/oauth/status`),
 * shared by the server (SocialAccountTransformer) and the browser code
 * (`#api/social_account`). Plain types only.
 */

/** One linked provider account. */
export interface LinkedProvider {
  provider: string
  providerUsername: string
}

/** `GET /api/oauth/status`: the caller's linked providers, keyed by provider id. */
export type OauthStatus = Record<string, LinkedProvider>
