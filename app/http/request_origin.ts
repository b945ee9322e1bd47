/**
 * The origin the requester's browser used, which the links for that person
 * are built on until the public address is confirmed
 * (#services/links/link_base). Read here, at the HTTP edge, and passed to
 * the services as a plain value.
 */
import type { HttpRequest } from '@adonisjs/core/http'

/**
 * The origin the client used for `request` (`https://files.example.com`),
 * or null when the Host is missing or not a plain host[:port].
 * `request.protocol()` and `request.host()` follow `X-Forwarded-Proto` /
 * `X-Forwarded-Host` only from a proxy trusted by `TRUST_PROXY`.
 */
export function requestOrigin(request: HttpRequest): string | null {
  const host = request.host()
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return null
  const protocol = request.protocol() === 'https' ? 'https' : 'http'
  try {
    const url = new URL(`${protocol}://${host}`)
    return url.host ? url.origin : null
  } catch {
    return null
  }
}
