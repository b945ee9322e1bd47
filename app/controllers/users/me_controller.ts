import type { HttpContext } from '@adonisjs/core/http'
import UserTransformer from '#transformers/user_transformer'
import { userService } from '#services/users/user_service'
import { sessionService } from '#services/auth/session_service'
import { updateOwnUserValidator } from '#validators/users'

/** The signed-in user's own account (spec/api.md §3, `/api/users/me`). */
export default class MeController {
  /** GET /api/users/me: 200 user. */
  async show({ user, response }: HttpContext) {
    return response.ok(UserTransformer.toJSON(user!))
  }

  /** PATCH /api/users/me `{username?, email?}`: 200 user; 400 duplicates. */
  async update({ user, request, response }: HttpContext) {
    const fields = await updateOwnUserValidator.validate(request.body())
    const updated = await userService.update(user!, { username: fields.username, email: fields.email })
    return response.ok(UserTransformer.toJSON(updated))
  }

  /** DELETE /api/users/me: 204; the user and their shares are gone, cookies cleared. */
  async destroy(ctx: HttpContext) {
    await userService.delete(ctx.user!)
    sessionService.clearCookies(ctx)
    return ctx.response.noContent()
  }
}
