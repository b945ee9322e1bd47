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
 *   used (`linkBase`): the request's origin, which the controller reads with
 *   `requestOrigin` (#http/request_origin) and passes in;
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
 * const url = `${await linkBase(requestOrigin(ctx.request))}/s/${id}` // #http/request_origin
 * const mailed = await linkForOthers(`/s/${id}`) // absolute once the address is confirmed
 * ```
 */
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'

/** The default of `general.appUrl` (`#services/config/definitions`): a placeholder until an address is confirmed. */
export const DEFAULT_APP_URL = 'http://localhost:3000'

/** `url` without surrounding spaces and trailing slashes. */
function trimmed(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

/** The confirmed public address without a trailing slash, or null while none is stored (see the module comment). */
export async function confirmedAppUrl(): Promise<string | null> {
  const config = await app.container.make(ConfigService)
  const stored = await config.stored('general.appUrl')
  return stored === null ? null : trimmed(stored)
}

/** The public address as a page needs it: the confirmed one (or null), and the base of the links it shows. */
export interface PublicAddress {
  confirmed: string | null
  linkBase: string
}

/**
 * See the module comment: the confirmed address, else `requestOrigin` (the
 * origin the requester's browser used, `#http/request_origin`; null without
 * a request or a usable Host), else the default. One settings read.
 */
export async function publicAddress(requestOrigin: string | null): Promise<PublicAddress> {
  const confirmed = await confirmedAppUrl()
  if (confirmed !== null) return { confirmed, linkBase: confirmed }
  return { confirmed: null, linkBase: requestOrigin ?? DEFAULT_APP_URL }
}

/**
 * The base of links for the person making the request (see the module
 * comment), without a trailing slash.
 */
export async function linkBase(requestOrigin: string | null): Promise<string> {
  const address = await publicAddress(requestOrigin)
  return address.linkBase
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
