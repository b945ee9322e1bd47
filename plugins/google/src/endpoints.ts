/**
 * Google's endpoints. `GOOGLE_OAUTH_BASE_URL` (read at boot) replaces the
 * three origins by one base with the same paths: the tests' local server.
 * Tests may also assign the fields; the driver reads them per sign-in.
 */
export const googleEndpoints = {
  authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  userinfo: 'https://openidconnect.googleapis.com/v1/userinfo',
}

/** The endpoints under one base URL (paths as Google's). */
export function googleEndpointsAt(base: string) {
  const root = base.replace(/\/+$/, '')
  return {
    authorize: `${root}/o/oauth2/v2/auth`,
    token: `${root}/token`,
    userinfo: `${root}/v1/userinfo`,
  }
}
