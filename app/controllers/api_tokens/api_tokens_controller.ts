import type { HttpContext } from '@adonisjs/core/http'
import { apiTokenService } from '#services/api_tokens/api_token_service'
import { createApiTokenValidator } from '#validators/api_tokens'

/** Personal API tokens of the signed-in user (ext, `/api/users/me/apiTokens`). */
export default class ApiTokensController {
  /** GET: 200 `[{id, name, prefix, createdAt, lastUsedAt, expiresAt}]`, newest first. */
  async index({ user, response }: HttpContext) {
    return response.ok(await apiTokenService.list(user!))
  }

  /** POST `{name, expiresAt?}`: 201 the token view plus `token`, shown this once. */
  async store({ user, request, response }: HttpContext) {
    const fields = await createApiTokenValidator.validate(request.body())
    return response.created(await apiTokenService.create(user!, fields))
  }

  /** DELETE /:id: 204; 404 "API token not found". */
  async destroy({ user, params, response }: HttpContext) {
    await apiTokenService.revoke(user!, params.id)
    return response.noContent()
  }
}
