import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BaseInertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import app from '@adonisjs/core/services/app'
import type { InertiaConfig } from '@adonisjs/inertia/types'
import ConfigService from '#services/config/config_service'
import { publicAddress } from '#services/links/link_base'
import { requestOrigin } from '#http/request_origin'
import UserTransformer from '#transformers/user_transformer'
import ConfigVariableTransformer from '#transformers/config_variable_transformer'
import { colorSchemeOf, pageLanguage } from '#http/page_request'
import type { SharedPageProps } from '#api/pages'
import type { PublicConfigVariable } from '#api/config'
import type { PublicUser } from '#api/user'
// Registers the store of server-rendered pages' stylesheets for the SSR entry (inertia/ssr.tsx).
import '#services/pages/ssr_styles'

/** An object type without the interface's closed shape (page props must be plain JSON objects). */
type Plain<T> = { [K in keyof T]: T[K] }

/** `SharedPageProps` (#api/pages) as Inertia types page props: plain objects. */
export type SharedPagePropsJson = Omit<SharedPageProps, 'user' | 'configVariables'> & {
  user: Plain<PublicUser> | null
  configVariables: Plain<PublicConfigVariable>[]
}

/**
 * Shares the props every page receives (user, configVariables, route,
 * colorScheme, language; `SharedPageProps` of `#api/pages`) and finalises
 * Inertia responses.
 */
export default class InertiaMiddleware extends BaseInertiaMiddleware {
  async share(ctx: HttpContext): Promise<SharedPagePropsJson> {
    const config = await ctx.containerResolver.make(ConfigService)
    const [signedIn, variables, address] = await Promise.all([
      // ctx.auth is missing only on the error page of a request that failed before the auth middleware.
      ctx.auth ? ctx.auth.check() : false,
      config.publicVariables(),
      publicAddress(requestOrigin(ctx.request)),
    ])
    // Pages build links from general.appUrl: until it is confirmed, the address the browser used (#services/links/link_base).
    const configVariables = ConfigVariableTransformer.toPublicList(variables).map((variable) =>
      variable.key === 'general.appUrl' ? { ...variable, value: address.linkBase } : variable
    )
    return {
      user: signedIn ? UserTransformer.toJSON(ctx.auth.getUserOrFail()) : null,
      configVariables,
      route: ctx.request.url(),
      colorScheme: colorSchemeOf(ctx),
      language: pageLanguage(ctx),
      appUrlConfirmed: address.confirmed !== null,
    }
  }

  async handle(ctx: HttpContext, next: NextFn) {
    await this.init(ctx)
    pinAssetsVersion(ctx)
    const output = await next()
    this.dispose(ctx)
    return output
  }
}

let assetsVersionPinned = false

/**
 * The asset version Inertia computes per request (an MD5 of the whole Vite
 * manifest, cached only on that request's Inertia instance: ~5 % of a cached
 * page's CPU) is computed once: the manifest of a running process
 * does not change. Stored as the config's `assetsVersion`, which each
 * request's instance takes as is; `1` under the dev server, as Inertia does.
 */
function pinAssetsVersion(ctx: HttpContext) {
  if (assetsVersionPinned) return
  const config = app.config.get<InertiaConfig>('inertia')
  config.assetsVersion ??= ctx.inertia.getVersion()
  assetsVersionPinned = true
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
    'auth/sign_in': { redirect: string; mailEnabled: boolean }
    'auth/sign_up': { redirect: string }
    'auth/forgot_password': { mailEnabled: boolean }
    'auth/reset_password': { token: string }
    'auth/totp': { loginToken: string; redirect: string }
    'account/index': {}
  }
}
