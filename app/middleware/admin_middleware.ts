import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { requireUser } from '#middleware/auth_middleware'
import { ForbiddenException } from '#services/auth/auth_errors'

/**
 * Route middleware `admin`: implies `auth` (401 when not signed in,
 * `ctx.auth.user` set), then 403 "Forbidden" unless the user is an admin.
 */
export default class AdminMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const user = await requireUser(ctx)
    if (!user.isAdmin) throw new ForbiddenException()
    return next()
  }
}
