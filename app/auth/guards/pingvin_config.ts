/**
 * `pingvinGuard()`: the config helper of the `pingvin` guard for
 * config/auth.ts. The guard's code is imported when the auth manager is
 * first built, not when the config file is read.
 */
import type { GuardConfigProvider } from '@adonisjs/auth/types'
import type { HttpContext } from '@adonisjs/core/http'
import type { PingvinGuard } from '#auth/guards/pingvin_guard'

/** Builds the guard of one request. */
export type PingvinGuardFactory = (ctx: HttpContext) => PingvinGuard

/** The `pingvin` guard (#auth/guards/pingvin_guard); it takes no options. */
export function pingvinGuard(): GuardConfigProvider<PingvinGuardFactory> {
  return {
    async resolver(_name, app) {
      const { PingvinGuard: Guard } = await import('#auth/guards/pingvin_guard')
      return (ctx) => new Guard(ctx, app)
    },
  }
}
