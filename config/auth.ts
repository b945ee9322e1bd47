import { defineConfig } from '@adonisjs/auth'
import type { InferAuthenticators } from '@adonisjs/auth/types'
import { pingvinGuard } from '#auth/guards/pingvin_config'

/**
 * One guard: `pingvin` reads Pingvin's credentials (the `access_token`
 * cookie, `Authorization: Bearer` with an access token or a personal API
 * token) and writes its session cookies (app/auth/guards/pingvin_guard.ts).
 */
const authConfig = defineConfig({
  default: 'pingvin',
  guards: {
    pingvin: pingvinGuard(),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
