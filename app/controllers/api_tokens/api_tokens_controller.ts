import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiTokenService from '#services/api_tokens/api_token_service'
import ApiTokenTransformer from '#transformers/api_token_transformer'
import { NotFoundException } from '#services/auth/auth_errors'
import { createApiTokenValidator } from '#validators/api_tokens'

/** Personal API tokens of the signed-in user (ext, `/api/users/me/apiTokens`). */
@inject()
export default class ApiTokensController {
  constructor(protected apiTokens: ApiTokenService) {}

  /** GET: 200 `[{id, name, prefix, createdAt, lastUsedAt, expiresAt}]`, newest first. */
  async index({ auth, response }: HttpContext) {
    const rows = await this.apiTokens.list(auth.getUserOrFail())
    return response.ok(rows.map((row) => ApiTokenTransformer.toJSON(row)))
  }

  /**
   * POST `{name, expiresAt?}`: 201 the token view plus `token`, shown this
   * once; 409 "An API token with this name already exists".
   */
  async store({ auth, request, response }: HttpContext) {
    const fields = await createApiTokenValidator.validate(request.body())
    const { row, token } = await this.apiTokens.create(auth.getUserOrFail(), fields)
    return response.created(ApiTokenTransformer.createdJSON(row, token))
  }

  /** DELETE /:id: 204; 404 "API token not found" (unknown, or another user's: ApiTokenPolicy). */
  async destroy({ bouncer, params, response }: HttpContext) {
    const row = await this.apiTokens.find(params.id)
    if (!row || (await bouncer.with('ApiTokenPolicy').denies('delete', row))) {
      throw new NotFoundException('API token not found')
    }
    await this.apiTokens.revoke(row)
    return response.noContent()
  }
}
