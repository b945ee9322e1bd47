/**
 * Signing out from the pages: POST /api/auth/signOut, then reload (or follow
 * the identity provider's sign-out URL when the server returns one).
 * Resolves to false when the server refused.
 */
import { apiUrl } from './api_url.js'

export async function signOut(): Promise<boolean> {
  let response: Response
  try {
    response = await fetch(apiUrl('auth.signOut'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Accept': 'application/json', 'Content-Type': 'application/json' },
      body: '{}',
    })
  } catch {
    return false
  }
  if (!response.ok) return false
  const body = (await response.json().catch(() => null)) as { redirectURI?: unknown } | null
  if (body && typeof body.redirectURI === 'string' && body.redirectURI) {
    window.location.assign(body.redirectURI)
  } else {
    window.location.reload()
  }
  return true
}
