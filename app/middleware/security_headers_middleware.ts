import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { NONCE_PLACEHOLDER, newNonce, securityHeaders } from '#services/security/content_security_policy'

/**
 * Sets the security headers (CSP with a per-request nonce, frame-ancestors
 * 'none', Referrer-Policy, nosniff, Permissions-Policy) on every answer,
 * shares the nonce with the Edge views as `cspNonce`, and puts it in place
 * of the SSR entry's placeholder in rendered pages (error pages included:
 * the exception handler renders them before `next()` returns here).
 */
/*
 * Outside production (development and test runs) pages load from Vite's dev
 * server, whose client opens a WebSocket: the policy allows it there only.
 */
export default class SecurityHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const nonce = newNonce()
    ctx.cspNonce = nonce
    ctx.view?.share({ cspNonce: nonce })
    for (const [name, value] of Object.entries(securityHeaders(nonce, { dev: !app.inProduction }))) {
      ctx.response.header(name, value)
    }
    await next()
    const body = ctx.response.getBody()
    if (typeof body === 'string' && body.includes(NONCE_PLACEHOLDER)) {
      ctx.response.send(body.replaceAll(NONCE_PLACEHOLDER, nonce))
    }
  }
}

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The Content-Security-Policy nonce of this answer's scripts and styles. */
    cspNonce: string
  }
}
