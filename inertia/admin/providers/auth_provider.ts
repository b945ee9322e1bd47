/**
 * Refine's auth provider: who uses the admin panel is decided by the API.
 * Every method resolves to a result object and never throws.
 *
 * - `check` refreshes the session when needed and asks `GET /api/users/me`:
 *   an admin is authenticated; a signed-in non-admin is not, with a 403
 *   error (the panel shows its 403 page); a visitor (401) is not, with
 *   `redirectTo` the sign-in page that comes back here afterwards.
 * - `login` is the pages' job (`/auth/signIn`); `logout` signs out like the
 *   avatar menu of the pages.
 */
import type { AuthProvider, CheckResponse } from '@refinedev/core'
import { isApiError } from '~/lib/api'
import { apiUrl } from '~/lib/api_url'
import { signOut } from '~/lib/auth'
import { paths } from '~/lib/links'
import type { PublicUser } from '#api/user'
import { adminHttp, type AdminHttp } from '~/admin/lib/http'

/** The basename of the admin SPA's routes. */
export const ADMIN_BASENAME = paths.admin

/** The sign-in page, coming back to `path` (a local path) afterwards. */
export function signInUrl(path: string): string {
  return `${paths.signIn}?redirect=${encodeURIComponent(path).replace(/%2F/gi, '/')}`
}

/** The current location as a local path with its query (`/admin/users?x=1`). */
export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`
}

/** The error `check` reports for a signed-in user without the admin right. */
export const FORBIDDEN = { name: 'Forbidden', message: 'Forbidden', statusCode: 403 }

/** The user the last successful `check` saw (the identity of the panel). */
let current: PublicUser | null = null

/** The outcome of the last `check`. */
let lastCheck: CheckResponse | null = null

/**
 * The outcome of the last `check`, for the page shown instead of the panel
 * (read here rather than through `useIsAuthenticated`, whose new observer
 * would check again, hide the page while loading, and so on in a loop).
 */
export function lastCheckResult(): CheckResponse | null {
  return lastCheck
}

/** The signed-in admin, once `check` succeeded. */
export function currentAdmin(): PublicUser | null {
  return current
}

/** Asks the API who is signed in (see the module comment). */
async function checkSession(http: AdminHttp): Promise<CheckResponse> {
  try {
    const user = await http.get<PublicUser>(apiUrl('users.me.show'))
    current = user
    if (!user.isAdmin) return { authenticated: false, error: FORBIDDEN }
    return { authenticated: true }
  } catch (error) {
    current = null
    const statusCode = isApiError(error) ? error.statusCode : 0
    const message = error instanceof Error ? error.message : String(error)
    if (statusCode === 401) {
      return {
        authenticated: false,
        redirectTo: signInUrl(currentPath()),
        error: { name: 'Unauthorized', message, statusCode },
      }
    }
    return { authenticated: false, error: { name: 'Error', message, statusCode } }
  }
}

/** Creates the auth provider over `http`. */
export function createAuthProvider(http: AdminHttp = adminHttp): AuthProvider {
  return {
    async check() {
      lastCheck = await checkSession(http)
      return lastCheck
    },

    async login() {
      window.location.assign(signInUrl(currentPath()))
      return { success: true }
    },

    async logout() {
      const done = await signOut()
      return done
        ? { success: true }
        : { success: false, error: { name: 'Error', message: 'Sign-out failed' } }
    },

    async onError(error) {
      const statusCode = (error as { statusCode?: number })?.statusCode
      // The session ended while the panel was open: go through sign-in again.
      if (statusCode === 401) window.location.assign(signInUrl(currentPath()))
      return {}
    },

    async getIdentity() {
      if (!current) {
        try {
          current = await http.get<PublicUser>(apiUrl('users.me.show'))
        } catch {
          return null
        }
      }
      return { id: current.id, name: current.username, email: current.email }
    },

    async getPermissions() {
      return current?.isAdmin ? ['admin'] : []
    },
  }
}
