import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'

/** GET /api/configs: the public configuration variables `[{key, value, type}]`. */
@inject()
export default class ConfigsController {
  constructor(protected config: ConfigService) {}

  async index({ response }: HttpContext) {
    return response.ok(await this.config.publicVariables())
  }
}
