import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'

/**
 * POST /api/configs/admin/finishSetup (admin): marks the
 * first-run setup as done (`internal.setupFinished`, public, so
 * `GET /api/configs` tells every client). 201, also when it already was.
 */
@inject()
export default class FinishSetupController {
  constructor(protected config: ConfigService) {}

  async handle({ response }: HttpContext) {
    await this.config.set('internal.setupFinished', true)
    return response.created()
  }
}
