/**
 * The hook for `{redirectURI}` in the answer of `POST /api/auth/signOut`
 * (Pingvin's field): only a session that came from OIDC, with
 * `oauth.oidc-signOut` on, answers the provider's end-session URL. The social
 * login code registers a resolver; without one, sign-out answers no body.
 *
 * ```ts
 * registerSignOutRedirect(async (session) => {
 *   if (!session.oauthIdToken || !(await configService.get('oauth.oidc-signOut'))) return null
 *   return `${endSessionEndpoint}?id_token_hint=${session.oauthIdToken}&post_logout_redirect_uri=...`
 * })
 * ```
 */
import type RefreshToken from '#models/refresh_token'

/** Answers the URL to send the browser to after signing out of `session`, or null. */
export type SignOutRedirectResolver = (session: RefreshToken) => Promise<string | null | undefined>

const resolvers: SignOutRedirectResolver[] = []

/** Adds a resolver (asked in registration order; the first URL wins). Returns a remover. */
export function registerSignOutRedirect(resolver: SignOutRedirectResolver): () => void {
  resolvers.push(resolver)
  return () => {
    const index = resolvers.indexOf(resolver)
    if (index >= 0) resolvers.splice(index, 1)
  }
}

/** The redirect URL for the revoked `session`, or null (no resolver answered one). */
export async function signOutRedirectFor(session: RefreshToken): Promise<string | null> {
  for (const resolver of resolvers) {
    const url = await resolver(session)
    if (url) return url
  }
  return null
}
