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
} as const

/** A local path to go to (`/account`), or `/` for anything else (no open redirect). */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/'
  return value
}

/**
 * After signing in or up: a full page load of `redirect`, so every part of
 * the page (header, shared props, session refresh) starts signed in.
 */
export function enterApp(redirect: string | null | undefined) {
  window.location.assign(safeRedirect(redirect))
}
