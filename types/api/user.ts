/**
 * The user objects of the HTTP API, shared by the server (its transformers
 * return them) and the browser code (which imports them as `#api/user`).
 * Plain types only: this folder imports nothing from the server or the browser.
 */

/** The public user object of the API, as Pingvin answers it. Never the hash, secrets or tokens. */
export interface PublicUser {
  id: string
  username: string
  email: string
  isAdmin: boolean
  totpVerified: boolean
  hasPassword: boolean
}
