import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { authenticate, crossSiteRefusal } from '#middleware/auth/current_user'
import { UnauthorizedException } from '#services/auth/auth_errors'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Route middleware `auth`: the caller must be signed in (401
 * `{statusCode: 401, message: 'Unauthorized', error: 'Unauthorized'}`
 * otherwise) and `ctx.user` is set. A mutating request authenticated by the
 * cookie is refused (403, with a message that names the expected origin and
 * the setting general.appUrl) when the browser says it comes from another site.
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await requireUser(ctx)
    return next()
  }
}

/**
 * Does the work of the `auth` middleware (shared with `admin`): sets and
 * returns `ctx.user`, or throws 401/403.
 */
export async function requireUser(ctx: HttpContext) {
  const authentication = await authenticate(ctx)
  if (!authentication) throw new UnauthorizedException()
  if (authentication.via === 'cookie' && !SAFE_METHODS.has(ctx.request.method())) {
    const refusal = await crossSiteRefusal(ctx)
    if (refusal) throw refusal
  }
  ctx.user = authentication.user
  return authentication.user
}
