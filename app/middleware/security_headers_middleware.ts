import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import {
  EXTRA_SECURITY_HEADERS,
  NONCE_PLACEHOLDER,
  responseNonce,
} from '#services/security/content_security_policy'
import { strictTransportSecurity } from '#services/security/strict_transport_security'

/**
 * What @adonisjs/shield (config/shield.ts, registered just before this)
 * leaves out: Referrer-Policy and Permissions-Policy on every answer,
 * Strict-Transport-Security on answers to HTTPS requests (directly or
 * through a trusted proxy, see strict_transport_security), the CSP nonce
 * shared with the Edge views as `cspNonce`, and that nonce in place of the
 * SSR entry's placeholder in rendered pages (error pages included: the
 * exception handler renders them before `next()` returns here).
 */
export default class SecurityHeadersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const nonce = responseNonce(ctx.response.response)
    ctx.cspNonce = nonce
    ctx.response.nonce = nonce
    ctx.view?.share({ cspNonce: nonce })
    for (const [name, value] of Object.entries(EXTRA_SECURITY_HEADERS))
      ctx.response.header(name, value)
    if (ctx.request.secure())
      ctx.response.header('Strict-Transport-Security', strictTransportSecurity())
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
