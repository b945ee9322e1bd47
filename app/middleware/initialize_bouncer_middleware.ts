import { Bouncer } from '@adonisjs/bouncer'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type User from '#models/user'
import * as abilities from '#abilities/main'
import { policies } from '#policies/main'

/**
 * Gives every routed request a Bouncer (`ctx.bouncer`) whose user is the caller
 * the `pingvin` guard authenticated (access token or API token; null for a
 * visitor). Bouncer hands its user to policies as is (a resolver must return
 * the user, not a promise), so the caller is resolved here: once per request
 * (the guard keeps its answer), and without any lookup when the request
 * carries no token.
 */
export default class InitializeBouncerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await ctx.auth.check()
    ctx.bouncer = new Bouncer(ctx.auth.user ?? null, abilities, policies).setContainerResolver(
      ctx.containerResolver
    )
    return next()
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    bouncer: Bouncer<User, typeof abilities, typeof policies>
  }
}
