/**
 * @adonisjs/shield: the security headers of every answer.
 * Shield writes the Content-Security-Policy, X-Frame-Options and nosniff;
 * SecurityHeadersMiddleware adds Referrer-Policy, Permissions-Policy and,
 * over HTTPS, Strict-Transport-Security, shares the nonce with the views
 * and fills the SSR placeholder.
 */
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/shield'
import { nonceSource } from '#services/security/content_security_policy'

const shieldConfig = defineConfig({
  /**
   * The page policy. Scripts and <style> elements need the answer's nonce.
   * `style-src-attr 'unsafe-inline'`: antd and React render `style="…"`
   * attributes, which cannot carry a nonce (attributes cannot run script).
   * Images and media may be `blob:`/`data:` (previews, QR codes), a PDF
   * preview is a `blob:` in an <object>. Outside production (development and
   * test runs) pages load from Vite's dev server, whose client opens a
   * WebSocket: allowed there only. A download replaces the policy with
   * `sandbox` (file_download.ts).
   */
  csp: {
    enabled: true,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'", nonceSource, "'report-sample'"],
      'style-src': ["'self'", nonceSource, "'report-sample'"],
      'style-src-attr': ["'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'media-src': ["'self'", 'blob:'],
      'object-src': ["'self'", 'blob:'],
      'frame-src': ["'self'", 'blob:'],
      'font-src': ["'self'", 'data:'],
      'worker-src': ["'self'", 'blob:'],
      'connect-src': app.inProduction ? ["'self'"] : ["'self'", 'ws:', 'wss:'],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
    reportOnly: false,
  },

  /** Pages are never framed (with `frame-ancestors 'none'` for current browsers). */
  xFrame: { enabled: true, action: 'DENY' },

  contentTypeSniffing: { enabled: true },

  /**
   * Off here: Shield would send it on every answer, plain HTTP included (a
   * LAN instance reached over HTTP would pin HTTPS for visitors who once
   * came through an HTTPS proxy). SecurityHeadersMiddleware sends it on
   * answers to HTTPS requests only (app/services/security/strict_transport_security.ts).
   */
  hsts: { enabled: false },

  /**
   * Off: Tern needs no session. Mutating API calls are refused cross-origin
   * (origin check) and authenticated by SameSite cookies or bearer tokens.
   */
  csrf: { enabled: false },
})

export default shieldConfig
