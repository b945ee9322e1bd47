import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import ConfigService from '#services/config/config_service'
import ConfigVariableTransformer from '#transformers/config_variable_transformer'
import { updateConfigVariablesValidator } from '#validators/configs'
import { configViewOf } from '#controllers/configs/config_view'

/** Admin routes of the configuration variables (`/api/configs/admin/*`). */
@inject()
export default class AdminConfigsController {
  constructor(protected config: ConfigService) {}

  /**
   * GET /api/configs/admin: the categories of the configuration menu, in
   * order: `[{category, name, order, source}]` (core General, Share, Email,
   * SMTP, Social Login, then plugin categories; hidden ones left out).
   */
  async index({ response }: HttpContext) {
    return response.ok(
      this.config
        .adminCategories()
        .map((category) => ConfigVariableTransformer.categoryJSON(category))
    )
  }

  /**
   * GET /api/configs/admin/:category: the category's variables, obscured
   * values masked: Pingvin's keys in Pingvin's order for the categories of
   * Pingvin's admin menu, or with `?ext=1` every variable Tern has.
   */
  async show({ params, request, response }: HttpContext) {
    const variables = await this.config.adminCategory(params.category, configViewOf(request))
    return response.ok(ConfigVariableTransformer.toAdminList(variables))
  }

  /** PATCH /api/configs/admin: `[{key, value}]`, all or nothing; 200 with the updated variables. */
  async update({ request, response }: HttpContext) {
    const changes = await updateConfigVariablesValidator.validate(request.body())
    return response.ok(ConfigVariableTransformer.toAdminList(await this.config.update(changes)))
  }
}
