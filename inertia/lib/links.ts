/**
 * Paths of the pages the shell links to. Several of them are built by later
 * issues; keeping them here means one place to switch to named routes.
 */
export const paths = {
  home: '/',
  upload: '/upload',
  signIn: '/auth/signIn',
  signUp: '/auth/signUp',
  account: '/account',
  myShares: '/account/shares',
  reverseShares: '/account/reverseShares',
  admin: '/admin',
} as const

/** Where the "Source code" button of the home page leads. */
export const SOURCE_CODE_URL = 'https://github.com/tern-share/tern'
