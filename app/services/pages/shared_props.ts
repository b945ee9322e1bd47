import type { HttpContext } from '@adonisjs/core/http'
import { configService, type PublicConfigVariable } from '#services/config/config_service'
import { currentUser } from '#services/auth/current_user'
import UserTransformer, { type PublicUser } from '#transformers/user_transformer'

/** Colour schemes a visitor may choose; `system` follows the OS setting. */
export type ColorScheme = 'light' | 'dark' | 'system'

/** Name of the cookie holding the colour scheme preference. */
export const COLOR_SCHEME_COOKIE = 'color_scheme'

/** An object type without the interface's closed shape (page props must be plain JSON objects). */
type Plain<T> = { [K in keyof T]: T[K] }

/**
 * Props shared by every page, as the spec names them. The pages' copy of this
 * shape is `inertia/types/page_props.ts`.
 */
export type SharedPageProps = {
  /** The signed-in user (public user object), or null. */
  user: Plain<PublicUser> | null
  /** The public configuration variables, as `GET /api/configs` lists them. */
  configVariables: Plain<PublicConfigVariable>[]
  /** The path of the current page, without query string. */
  route: string
  /** The colour scheme preference (cookie `color_scheme`), `system` when unset. */
  colorScheme: ColorScheme
  /** The locale the page is rendered in (see LocaleMiddleware). */
  language: string
}

/** The colour scheme a request asks for through the `color_scheme` cookie. */
export function colorSchemeOf(ctx: HttpContext): ColorScheme {
  const scheme = ctx.request.plainCookie(COLOR_SCHEME_COOKIE, { encoded: false })
  return scheme === 'dark' || scheme === 'light' ? scheme : 'system'
}

/**
 * Builds the shared props of a page request.
 */
export async function sharedPageProps(ctx: HttpContext): Promise<SharedPageProps> {
  const [user, configVariables] = await Promise.all([currentUser(ctx), configService.publicVariables()])
  return {
    user: user ? UserTransformer.toJSON(user) : null,
    configVariables,
    route: ctx.request.url(),
    colorScheme: colorSchemeOf(ctx),
    language: ctx.i18n?.locale ?? 'en-US',
  }
}
