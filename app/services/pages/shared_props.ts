import type { HttpContext } from '@adonisjs/core/http'

/** Colour schemes a visitor may choose; `system` follows the OS setting. */
export type ColorScheme = 'light' | 'dark' | 'system'

/**
 * Props shared by every page, as the spec names them: user, configVariables,
 * route, colorScheme, language.
 */
export async function sharedPageProps(ctx: HttpContext) {
  const scheme = ctx.request.plainCookie('color_scheme', { encoded: false })
  const colorScheme: ColorScheme = scheme === 'dark' || scheme === 'light' ? scheme : 'system'
  return {
    user: null as null | { id: string; username: string; email: string; isAdmin: boolean },
    configVariables: [] as { key: string; value: string; type: string }[],
    route: ctx.request.url(),
    colorScheme,
    language: ctx.i18n.locale,
  }
}
