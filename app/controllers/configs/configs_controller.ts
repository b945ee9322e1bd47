import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'
import ConfigVariableTransformer from '#transformers/config_variable_transformer'
import { configViewOf } from '#controllers/configs/config_view'

/**
 * GET /api/configs: the public configuration variables `[{key, value, type}]`:
 * Pingvin's keys, or with `?ext=1` every public variable of Tern.
 */
@inject()
export default class ConfigsController {
  constructor(protected config: ConfigService) {}

  async index({ request, response }: HttpContext) {
    const variables = await this.config.publicVariables(configViewOf(request))
    return response.ok(ConfigVariableTransformer.toPublicList(variables))
  }
}
