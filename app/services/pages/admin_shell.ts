/**
 * What the administration panel's HTML shell (`resources/views/admin.edge`)
 * needs: the document's language, direction and theme, the title, and the
 * boot data handed to the SPA as JSON (the client's copy of its shape is
 * `inertia/admin/boot.ts`). Nothing here is for admins only: the shell is
 * the same for everyone; the SPA reads the rest from the admin API
 * (plugins from `GET /api/admin/plugins`).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { configService } from '#services/config/config_service'
import { colorSchemeOf, type ColorScheme } from '#services/pages/shared_props'
import { localeInfo } from '#start/locales'

/** The JSON the SPA reads from `<script id="tern-admin-boot">`. */
export interface AdminBootData {
  /** Locale code of the interface (same choice as the pages: cookie, then browser). */
  language: string
  /** The colour scheme preference (cookie `color_scheme`). */
  colorScheme: ColorScheme
  /** `general.appName`, for the title and the sider. */
  appName: string
}

/** Variables of the Edge shell. */
export interface AdminShellData {
  language: string
  direction: 'ltr' | 'rtl'
  theme: 'light' | 'dark'
  colorScheme: ColorScheme
  title: string
  /** `AdminBootData` as JSON, safe inside a `<script>` element. */
  bootJson: string
}

/**
 * JSON that can sit inside `<script type="application/json">`: `<` is
 * escaped so a value containing `</script>` cannot end the element.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

/** Builds the shell's variables for a request. */
export async function adminShellData(ctx: HttpContext): Promise<AdminShellData> {
  const language = ctx.i18n?.locale ?? 'en-US'
  const colorScheme = colorSchemeOf(ctx)
  const appName = (await configService.get('general.appName')) || 'Tern'
  const boot: AdminBootData = { language, colorScheme, appName }
  return {
    language,
    direction: localeInfo(language).rtl ? 'rtl' : 'ltr',
    theme: colorScheme === 'dark' ? 'dark' : 'light',
    colorScheme,
    title: appName,
    bootJson: scriptSafeJson(boot),
  }
}
