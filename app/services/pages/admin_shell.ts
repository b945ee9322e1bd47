/**
 * What the administration panel's HTML shell (`resources/views/admin.edge`)
 * needs: the document's language, direction and theme, the title, and the
 * boot data handed to the SPA as JSON (`AdminBootData` of `#api/pages`, which
 * `inertia/admin/boot.ts` reads). Nothing here is for admins only: the shell is
 * the same for everyone; the SPA reads the rest from the admin API
 * (plugins from `GET /api/admin/plugins`).
 */
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'
import { confirmedAppUrl } from '#services/links/link_base'
import { localeInfo } from '#start/locales'
import type { AdminBootData, ColorScheme } from '#api/pages'

export type { AdminBootData }

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
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** Builds the admin shell's variables. */
@inject()
export default class AdminShellService {
  constructor(protected config: ConfigService) {}

  /** The shell's variables for a page in `language` with the visitor's `colorScheme`. */
  async shellData(language: string, colorScheme: ColorScheme): Promise<AdminShellData> {
    const [appName, appUrl] = await Promise.all([
      this.config.get('general.appName'),
      confirmedAppUrl(),
    ])
    const boot: AdminBootData = { language, colorScheme, appName: appName || 'Tern', appUrl }
    return {
      language,
      direction: localeInfo(language).rtl ? 'rtl' : 'ltr',
      theme: colorScheme === 'dark' ? 'dark' : 'light',
      colorScheme,
      title: boot.appName,
      bootJson: scriptSafeJson(boot),
    }
  }
}
