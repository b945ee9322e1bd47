import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BaseInertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import { sharedPageProps } from '#services/pages/shared_props'

/**
 * Shares the props every page receives (user, configVariables, route,
 * colorScheme, language) and finalises Inertia responses.
 */
export default class InertiaMiddleware extends BaseInertiaMiddleware {
  share(ctx: HttpContext) {
    return sharedPageProps(ctx)
  }

  async handle(ctx: HttpContext, next: NextFn) {
    await this.init(ctx)
    const output = await next()
    this.dispose(ctx)
    return output
  }
}

declare module '@adonisjs/inertia/types' {
  type MiddlewareSharedProps = import('@adonisjs/inertia/types').InferSharedProps<InertiaMiddleware>
  export interface SharedProps extends MiddlewareSharedProps {}

  /**
   * The Inertia pages (`inertia/pages/<name>.tsx`) and their own props.
   * A feature adding a page adds it here (or augments this interface next
   * to its controller) so `ctx.inertia.render(name, props)` is type-checked.
   */
  export interface InertiaPages {
    'home': {}
    'errors/not_found': { status: number }
    'errors/server_error': { status: number }
    'auth/sign_in': { redirect: string }
    'auth/sign_up': { redirect: string }
    'auth/forgot_password': {}
    'auth/reset_password': { token: string }
    'auth/totp': { loginToken: string; redirect: string }
    'account/index': {}
  }
}
