import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { crossSiteRefusal } from '#auth/cross_site'
import { UnauthorizedException } from '#services/auth/auth_errors'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Route middleware `auth`: the caller must be signed in (401
 * `{statusCode: 401, message: 'Unauthorized', error: 'Unauthorized'}`
 * otherwise); `ctx.auth.user` is then set. A mutating request authenticated
 * by the cookie is refused (403, with a message that names the expected
 * origin and the setting general.appUrl) when the browser says it comes from
 * another site.
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await requireUser(ctx)
    return next()
  }
}

/**
 * Does the work of the `auth` middleware (shared with `admin` and the share
 * routes): returns the caller (`ctx.auth.user`), or throws 401/403.
 */
export async function requireUser(ctx: HttpContext) {
  if (!(await ctx.auth.check())) throw new UnauthorizedException()
  if (ctx.auth.use('pingvin').via === 'cookie' && !SAFE_METHODS.has(ctx.request.method())) {
    const refusal = await crossSiteRefusal(ctx)
    if (refusal) throw refusal
  }
  return ctx.auth.getUserOrFail()
}
