/**
 * The public address of Tern (`general.appUrl`) and the base of the absolute
 * links it hands out (share links, upload links of reverse shares, links in
 * e-mails and notifications, the share-ready modal, QR codes, the social
 * sign-in redirect URI).
 *
 * The address is *confirmed* once a value is stored for `general.appUrl`: the
 * first admin confirms it in one step at sign-in, any admin may change it in
 * the configuration, and a Pingvin client (`PATCH /api/configs/admin`) or a
 * Pingvin import may write it. Unset, its default `http://localhost:3000` is
 * a placeholder, never an address to send anyone to. `confirmedAppUrl()`
 * answers the confirmed address, or null.
 *
 * Links are built from the confirmed address. Until there is one:
 * - links for the person making the request (the share-ready modal, share
 *   and upload links, QR codes, the mails a user's own share sends to its
 *   recipients, an admin's invitation) use the address that person's browser
 *   used (`linkBase`): the request's origin (`request.protocol()` and
 *   `request.host()`, which follow `X-Forwarded-Proto` / `X-Forwarded-Host`
 *   only from a proxy trusted by `TRUST_PROXY`);
 * - what reaches someone else or carries a secret waits, because a forged
 *   Host header must never choose where it points: password-reset mails are
 *   not sent (`#services/auth/password_reset_service`), social sign-in is
 *   refused (`#services/oauth/oauth_service`: no redirect URI to give), and
 *   notifications and the reverse share owner's mail name the share by its
 *   path only (`linkForOthers`).
 *
 * Security decisions (the cross-site check of `#auth/cross_site`)
 * and `GET /api/configs` keep reading the effective value of `general.appUrl`.
 *
 * ```ts
 * import { linkBase, linkForOthers } from '#services/links/link_base'
 * const url = `${await linkBase(ctx)}/s/${id}` // ctx optional: the current request by default
 * const mailed = await linkForOthers(`/s/${id}`) // absolute once the address is confirmed
 * ```
 */
import app from '@adonisjs/core/services/app'
import { HttpContext } from '@adonisjs/core/http'
import type { HttpRequest } from '@adonisjs/core/http'
import ConfigService from '#services/config/config_service'

/** The default of `general.appUrl` (`#services/config/definitions`): a placeholder until an address is confirmed. */
export const DEFAULT_APP_URL = 'http://localhost:3000'

/** `url` without surrounding spaces and trailing slashes. */
function trimmed(url: string): string {
  return url.trim().replace(/\/+$/, '')
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

/** The confirmed public address without a trailing slash, or null while none is stored (see the module comment). */
export async function confirmedAppUrl(): Promise<string | null> {
  const stored = await (await app.container.make(ConfigService)).stored('general.appUrl')
  return stored === null ? null : trimmed(stored)
}

/** The public address as a page needs it: the confirmed one (or null), and the base of the links it shows. */
export interface PublicAddress {
  confirmed: string | null
  linkBase: string
}

/**
 * See the module comment: the confirmed address, else the origin of `ctx`
 * (the current request when omitted), else the default. One settings read.
 */
export async function publicAddress(ctx?: HttpContext | null): Promise<PublicAddress> {
  const confirmed = await confirmedAppUrl()
  if (confirmed !== null) return { confirmed, linkBase: confirmed }
  const current = ctx ?? HttpContext.get()
  const origin = current ? requestOrigin(current.request) : null
  return { confirmed: null, linkBase: origin ?? DEFAULT_APP_URL }
}

/**
 * The base of links for the person making the request (see the module
 * comment), without a trailing slash.
 */
export async function linkBase(ctx?: HttpContext | null): Promise<string> {
  return (await publicAddress(ctx)).linkBase
}

/**
 * A link to `path` (`/s/<id>`) in a message to someone other than the
 * requester or sent without a request: absolute once the address is
 * confirmed, the path alone until then (neither the placeholder
 * `http://localhost:3000` nor a request's Host, which the sender may forge).
 */
export async function linkForOthers(path: string): Promise<string> {
  return `${(await confirmedAppUrl()) ?? ''}${path}`
}
