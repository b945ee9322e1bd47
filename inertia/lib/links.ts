/**
 * Paths of the pages the shell links to, kept here so that switching to named
 * routes is a change in one place.
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
