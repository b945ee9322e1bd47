import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import VersionService from '#services/system/version_service'
import VersionTransformer from '#transformers/version_transformer'

/**
 * GET /api/configs/admin/version (admin, ext): 200
 * `{version, latestVersion, updateAvailable, releaseUrl}`; a release source
 * that cannot be read gives `latestVersion: null`, never an error.
 */
@inject()
export default class VersionController {
  constructor(protected versions: VersionService) {}

  async handle({ response }: HttpContext) {
    return response.ok(VersionTransformer.toJSON(await this.versions.status()))
  }
}
