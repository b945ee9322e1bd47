/**
 * What the server hands the browser with every page: the shared props of the
 * Inertia pages (built by app/middleware/inertia_middleware.ts) and the boot
 * data of the admin shell (app/services/pages/admin_shell.ts). Imported as
 * `#api/pages` by both sides. Plain types only.
 */
import type { PublicConfigVariable } from './config.js'
import type { PublicUser } from './user.js'

/** Colour schemes a visitor may choose; `system` follows the OS setting. */
export type ColorScheme = 'light' | 'dark' | 'system'

/** Props shared by every page. */
export type SharedPageProps = {
  /** The signed-in user (public user object), or null for visitors. */
  user: PublicUser | null
  /** The public configuration variables, as `GET /api/configs` lists them. */
  configVariables: PublicConfigVariable[]
  /** The path of the current page, without query string. */
  route: string
  /** The colour scheme preference (cookie `color_scheme`), `system` when unset. */
  colorScheme: ColorScheme
  /** The locale the page is rendered in (see LocaleMiddleware). */
  language: string
  /**
   * Whether an admin confirmed the public address (`general.appUrl` is
   * stored). Until then password-reset mails and social sign-in wait for it,
   * and an admin signing in is asked to confirm it.
   */
  appUrlConfirmed: boolean
}

/** The JSON the admin SPA reads from `<script id="tern-admin-boot">`. */
export interface AdminBootData {
  /** Locale code of the interface (same choice as the pages: cookie, then browser). */
  language: string
  /** The colour scheme preference (cookie `color_scheme`). */
  colorScheme: ColorScheme
  /** `general.appName`, for the title and the sider. */
  appName: string
  /** The confirmed public address (`general.appUrl` as stored), or null while none is confirmed. */
  appUrl: string | null
}
