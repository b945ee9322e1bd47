/**
 * The base of the absolute links Tern hands out (share links, upload links
 * of reverse shares, links in e-mails, the share-ready modal, QR codes).
 *
 * Once an administrator sets `general.appUrl` (any value but its default),
 * that value is the base. Until then (a fresh install, where the default
 * `http://localhost:3000` is almost never the public address), links use the
 * address the browser used: the origin of the request being answered
 * (`request.protocol()` and `request.host()`, which follow
 * `X-Forwarded-Proto` / `X-Forwarded-Host` only from a proxy trusted by
 * `TRUST_PROXY`). Without a request (jobs, the console), `general.appUrl`.
 *
 * Only links are built this way. Security decisions (the cross-site check of
 * `#middleware/auth/current_user`) and `GET /api/configs` keep reading the
 * stored `general.appUrl`, and so do links mailed to someone other than the
 * sender (password reset: a forged Host header must not redirect a victim's
 * token; the owner's "reverse share used" mail, caused by the uploader's
 * request: `configuredAppUrl`) and OAuth redirect URIs.
 *
 * ```ts
 * import { linkBase } from '#services/links/link_base'
 * const url = `${await linkBase(ctx)}/s/${id}` // ctx optional: the current request by default
 * ```
 */
import { HttpContext } from '@adonisjs/core/http'
import type { HttpRequest } from '@adonisjs/core/http'
import { configValue } from '#services/config/config_service'

/** The default of `general.appUrl` (`#services/config/definitions`): "not set yet". */
export const DEFAULT_APP_URL = 'http://localhost:3000'

/** `url` without trailing slashes. */
function trimmed(url: string): string {
  return url.replace(/\/+$/, '')
}

/** Whether `appUrl` is still the default, i.e. no administrator has chosen the address. */
export function isDefaultAppUrl(appUrl: string): boolean {
  return trimmed(appUrl.trim()) === DEFAULT_APP_URL
}

/**
 * The origin the client used for `request` (`https://files.example.com`),
 * or null when the Host is missing or not a plain host[:port].
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

/** `general.appUrl` as stored (or its default), without a trailing slash: for links mailed on someone else's request. */
export async function configuredAppUrl(): Promise<string> {
  return trimmed(await configValue('general.appUrl'))
}

/**
 * See the module comment: `general.appUrl` once set, else the origin of
 * `ctx` (the current request when omitted), else `general.appUrl`. Without
 * a trailing slash.
 */
export async function linkBase(ctx?: HttpContext | null): Promise<string> {
  const configured = await configuredAppUrl()
  if (!isDefaultAppUrl(configured)) return configured
  const current = ctx ?? HttpContext.get()
  const origin = current ? requestOrigin(current.request) : null
  return origin ?? configured
}
