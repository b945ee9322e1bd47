import type { HttpContext } from '@adonisjs/core/http'
import { configService } from '#services/config/config_service'

/** GET /api/configs: the public configuration variables `[{key, value, type}]`. */
export default class ConfigsController {
  async index({ response }: HttpContext) {
    return response.ok(await configService.publicVariables())
  }
}
