/**
 * Client session handling: access-token refresh, sign-out.
 *
 * The `access_token` cookie is a JWT the browser may read (not HttpOnly).
 * Its expiry is decoded; when it ends within 2 minutes a new token is asked
 * for (`POST /api/auth/token`, the HttpOnly refresh cookie goes along). The
 * check runs when the page starts and every 120 s. A failed refresh is only
 * logged ('Refresh token invalid or expired').
 *
 * The pure parts (`decodeTokenPayload`, `tokenExpiry`, `needsRefresh`) have no
 * browser dependency and are unit-tested (tests/unit/session.spec.ts).
 * No `~/` imports here: Node imports this file directly in the tests.
 */
import { apiUrl } from './api_url.js'

/** Name of the cookie holding the access token. */
export const ACCESS_TOKEN_COOKIE = 'access_token'

/** Refresh when the access token expires within this many milliseconds (2 minutes). */
export const REFRESH_THRESHOLD_MS = 2 * 60 * 1000

/** How often the token is checked (120 s). */
export const REFRESH_INTERVAL_MS = 120_000

/** The message logged when a refresh fails. */
export const REFRESH_FAILED_MESSAGE = 'Refresh token invalid or expired'

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4)
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/**
 * The payload of a well-formed token: three dot-separated parts whose middle
 * part is base64url JSON of an object. Null for anything else. The signature
 * is not checked (the server does that); only the expiry is of interest.
 */
export function decodeTokenPayload(
  token: string | null | undefined
): Record<string, unknown> | null {
  if (typeof token !== 'string') return null
  const parts = token.split('.')
  if (parts.length !== 3 || !parts[1]) return null
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]))
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null
    return payload as Record<string, unknown>
  } catch {
    return null
  }
}

/** The expiry of a token in milliseconds since the epoch, or null when it has none or is malformed. */
export function tokenExpiry(token: string | null | undefined): number | null {
  const exp = decodeTokenPayload(token)?.exp
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
}

/**
 * Whether the session should be refreshed now: there is an access token and
 * it expires within 2 minutes (or has expired, or cannot be decoded). Without
 * a token there is no session to refresh.
 */
export function needsRefresh(token: string | null | undefined, now: number = Date.now()): boolean {
  if (!token) return false
  const expiry = tokenExpiry(token)
  return expiry === null || expiry - now < REFRESH_THRESHOLD_MS
}

/** The value of a cookie of `cookieHeader` (`document.cookie`), or null. */
export function readCookie(cookieHeader: string, name: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=')
    if (index === -1) continue
    if (part.slice(0, index).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(index + 1).trim())
    } catch {
      return part.slice(index + 1).trim()
    }
  }
  return null
}

/** The access token of this browser, or null. */
export function currentAccessToken(): string | null {
  // Through globalThis: this file is also compiled without the DOM types (unit tests).
  const doc = (globalThis as { document?: { cookie: string } }).document
  return doc ? readCookie(doc.cookie, ACCESS_TOKEN_COOKIE) : null
}

/**
 * Asks for a new access token. Resolves to true on success; a failure is only
 * logged (never shown) and resolves to false.
 */
export async function refreshAccessToken(): Promise<boolean> {
  try {
    const response = await fetch(apiUrl('auth.token'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    })
    if (response.ok) return true
  } catch {
    // Network errors are treated like a refused refresh.
  }
  console.info(REFRESH_FAILED_MESSAGE)
  return false
}

/**
 * Refreshes the access token when it expires within 2 minutes. Resolves to
 * true when a new token was obtained.
 */
export async function refreshIfNeeded(now: number = Date.now()): Promise<boolean> {
  if (!needsRefresh(currentAccessToken(), now)) return false
  return refreshAccessToken()
}

/** Options of `startSessionRefresh`. */
export interface SessionRefreshOptions {
  /** Called after a successful refresh (e.g. to reload the page's user). */
  onRefreshed?: () => void
}

let running: { stop: () => void } | null = null

/**
 * Starts the refresh loop once per page load (later calls return the same
 * handle): a check now, then every 120 s. Returns a handle to stop it.
 */
export function startSessionRefresh(options: SessionRefreshOptions = {}): { stop: () => void } {
  if (running) return running
  const check = async () => {
    if (await refreshIfNeeded()) options.onRefreshed?.()
  }
  void check()
  const timer = setInterval(() => void check(), REFRESH_INTERVAL_MS)
  running = {
    stop() {
      clearInterval(timer)
      running = null
    },
  }
  return running
}
