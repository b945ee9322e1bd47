import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import UserTransformer from '#transformers/user_transformer'
import UserService from '#services/users/user_service'
import { ForbiddenException } from '#services/auth/auth_errors'
import { deleteOwnAccountValidator, updateOwnUserValidator } from '#validators/users'
import AccountDeletionService from '#services/users/account_deletion_service'

/** The signed-in user's own account (`/api/users/me`). */
@inject()
export default class MeController {
  constructor(
    protected users: UserService,
    protected deletion: AccountDeletionService
  ) {}

  /** GET /api/users/me: 200 user. */
  async show({ auth, response }: HttpContext) {
    return response.ok(UserTransformer.toJSON(auth.getUserOrFail()))
  }

  /** PATCH /api/users/me `{username?, email?}`: 200 user; 400 duplicates. */
  async update(ctx: HttpContext) {
    const user = ctx.auth.getUserOrFail()
    if (await ctx.bouncer.with('UserPolicy').denies('update', user)) throw new ForbiddenException()
    const fields = await updateOwnUserValidator.validate(ctx.request.body())
    const updated = await this.users.update(user, {
      username: fields.username,
      email: fields.email,
    })
    return ctx.response.ok(UserTransformer.toJSON(updated))
  }

  /**
   * DELETE /api/users/me: 204; the user and their shares are gone, cookies
   * cleared. `{password}` (or `{username}` for a social-only account) is
   * checked when sent (Tern's account page); no body is Pingvin's form.
   */
  async destroy(ctx: HttpContext) {
    const user = ctx.auth.getUserOrFail()
    if (await ctx.bouncer.with('UserPolicy').denies('delete', user)) throw new ForbiddenException()
    const confirmation = await deleteOwnAccountValidator.validate(ctx.request.body())
    await this.deletion.deleteOwn(user, confirmation, { ip: ctx.request.ip() })
    ctx.auth.use('pingvin').forget()
    return ctx.response.noContent()
  }
}
