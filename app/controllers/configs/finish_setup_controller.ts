import type { HttpContext } from '@adonisjs/core/http'
import { configService } from '#services/config/config_service'

/**
 * POST /api/configs/admin/finishSetup (admin, spec/api.md §6): marks the
 * first-run setup as done (`internal.setupFinished`, public, so
 * `GET /api/configs` tells every client). 201, also when it already was.
 */
export default class FinishSetupController {
  async handle({ response }: HttpContext) {
    await configService.set('internal.setupFinished', true)
    return response.created()
  }
}
