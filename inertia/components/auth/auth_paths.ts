/**
 * Paths of the account pages (server routes in start/routes/pages.ts) and the
 * navigation after signing in.
 */
export const authPaths = {
  signIn: '/auth/signIn',
  signUp: '/auth/signUp',
  forgotPassword: '/auth/resetPassword',
  resetPassword: (token: string) => `/auth/resetPassword/${encodeURIComponent(token)}`,
  totp: (loginToken: string) => `/auth/totp/${encodeURIComponent(loginToken)}`,
  account: '/account',
  /** After deleting one's account. */
  goodbye: '/goodbye',
} as const

/** Where a user lands after signing in or up when no page asked to come back (as the server's LANDING_PATH). */
export const landingPath = '/upload'

/** A local path to go to (`/account`), or the upload page for anything else (no open redirect). */
export function safeRedirect(value: string | null | undefined): string {
  if (
    !value ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\') ||
    // eslint-disable-next-line no-control-regex -- a redirect target must not carry control characters
    /[\u0000-\u001f]/.test(value)
  ) {
    return landingPath
  }
  return value
}

/** A sign-in or sign-up page address that comes back to `redirect` afterwards (none for the landing page). */
export function withRedirect(path: string, redirect: string | null | undefined): string {
  const target = safeRedirect(redirect)
  return target === landingPath
    ? path
    : `${path}?redirect=${encodeURIComponent(target).replace(/%2F/gi, '/')}`
}

/**
 * After signing in or up: a full page load of `redirect`, so every part of
 * the page (header, shared props, session refresh) starts signed in.
 */
export function enterApp(redirect: string | null | undefined) {
  window.location.assign(safeRedirect(redirect))
}
