import type { HttpContext } from '@adonisjs/core/http'
import { adminPluginsManifest } from '#extensions/admin/main'

/**
 * GET /api/admin/plugins (admin, ext): `{enabledPlugins, contributions}`,
 * the enabled plugin ids (load order) and what each contributes to the admin
 * panel (`AdminPluginsManifest` in app/extensions/admin/types.ts).
 */
export default class AdminPluginsController {
  async handle({ response }: HttpContext) {
    return response.ok(adminPluginsManifest())
  }
}
