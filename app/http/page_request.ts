/**
 * What a page request says about how to render it, read from the request
 * for the page controllers and the Inertia middleware (services take the
 * plain values).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { ColorScheme } from '#api/pages'

export type { ColorScheme }

/** Name of the cookie holding the colour scheme preference. */
export const COLOR_SCHEME_COOKIE = 'color_scheme'

/** The colour scheme a request asks for through the `color_scheme` cookie, `system` when unset. */
export function colorSchemeOf(ctx: HttpContext): ColorScheme {
  const scheme = ctx.request.plainCookie(COLOR_SCHEME_COOKIE, { encoded: false })
  return scheme === 'dark' || scheme === 'light' ? scheme : 'system'
}

/** The locale the page is rendered in (chosen by LocaleMiddleware), `en-US` without one. */
export function pageLanguage(ctx: HttpContext): string {
  return ctx.i18n?.locale ?? 'en-US'
}
