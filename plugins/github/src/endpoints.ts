/**
 * Where the GitHub driver sends its requests. The defaults are GitHub's;
 * `GITHUB_OAUTH_BASE_URL` / `GITHUB_API_BASE_URL` (read at boot) point them
 * elsewhere: GitHub Enterprise Server, or the tests' local server. Tests may
 * also assign the fields directly; the driver reads them per sign-in.
 */
export const githubEndpoints = {
  /** Base of `/login/oauth/authorize` and `/login/oauth/access_token`. */
  oauth: 'https://github.com',
  /** Base of `/user` and `/user/emails`. */
  api: 'https://api.github.com',
}

/** Applies the optional env overrides (trailing slashes removed). */
export function githubEndpointsFromEnv(read: (name: string) => string | undefined): void {
  const oauth = read('GITHUB_OAUTH_BASE_URL')
  const api = read('GITHUB_API_BASE_URL')
  if (oauth) githubEndpoints.oauth = oauth.replace(/\/+$/, '')
  if (api) githubEndpoints.api = api.replace(/\/+$/, '')
}
