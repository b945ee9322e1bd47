import type { HttpContext } from '@adonisjs/core/http'
import { availableProviders } from '#services/oauth/available_providers'

/** Social login routes (spec/api.md §2). */
export default class OauthController {
  /** GET /api/oauth/available: ids of the enabled providers. */
  async available({ response }: HttpContext) {
    return response.ok(await availableProviders())
  }
}
