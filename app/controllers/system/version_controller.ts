import type { HttpContext } from '@adonisjs/core/http'
import { versionService } from '#services/system/version_service'

/**
 * GET /api/configs/admin/version (admin, ext): 200
 * `{version, latestVersion, updateAvailable, releaseUrl}`; a release source
 * that cannot be read gives `latestVersion: null`, never an error.
 */
export default class VersionController {
  async handle({ response }: HttpContext) {
    return response.ok(await versionService.info())
  }
}
