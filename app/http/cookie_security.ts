/**
 * Whether the cookies of an answer carry `Secure`. Every cookie Tern sets
 * asks here, so a scanner (and a browser) never sees one go out over HTTPS
 * without it.
 *
 * The request's own scheme decides: HTTPS on the socket, or
 * `X-Forwarded-Proto: https` from a proxy that TRUST_PROXY trusts (the
 * header of anyone else is ignored, config/app.ts). The admin setting
 * `general.secureCookies` adds it on every answer, for a proxy that
 * terminates TLS without saying so; a browser drops a Secure cookie sent
 * over plain HTTP, so the setting is never implied by the scheme alone.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { configValue } from '#services/config/config_service'

/** Whether the request reached Tern over HTTPS (directly, or as a trusted proxy says). */
export function requestIsHttps(ctx: HttpContext): boolean {
  return ctx.request.secure()
}

/** Whether cookies set in answer to `ctx` get `Secure`: an HTTPS request, or `general.secureCookies`. */
export async function secureCookies(ctx: HttpContext): Promise<boolean> {
  return requestIsHttps(ctx) || (await configValue('general.secureCookies'))
}
