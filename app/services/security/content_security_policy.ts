/**
 * The security headers of Tern's answers (issue 11, item 17) and the
 * Content-Security-Policy of its HTML pages (Inertia pages and /admin).
 *
 * Scripts and <style> elements run only with the request's nonce: the Edge
 * shells put it on theirs (and on Vite's tags), the browser code reads it
 * from `<meta property="csp-nonce">` for antd's CSS-in-JS, Inertia's
 * progress bar and Vite's dev styles. The SSR entry cannot see the request,
 * so it marks the styles it extracted with a per-process placeholder, which
 * the middleware swaps for the nonce (an attacker cannot guess it).
 */
import { randomBytes } from 'node:crypto'

/** Key under which the SSR entry (inertia/ssr.tsx) finds the placeholder on `globalThis`. */
export const NONCE_PLACEHOLDER_KEY = Symbol.for('tern.cspNoncePlaceholder')

/** Stands for the nonce in server-rendered HTML until the middleware replaces it. */
export const NONCE_PLACEHOLDER = `tern-csp-nonce-${randomBytes(18).toString('base64url')}`
;(globalThis as Record<symbol, unknown>)[NONCE_PLACEHOLDER_KEY] = NONCE_PLACEHOLDER

/** A fresh nonce for one answer (128 bits). */
export function newNonce(): string {
  return randomBytes(16).toString('base64')
}

/**
 * The page policy. `style-src-attr 'unsafe-inline'`: antd and React render
 * `style="…"` attributes, which cannot carry a nonce (attributes cannot run
 * script). Images and media may be `blob:`/`data:` (previews, QR codes), a
 * PDF preview is a `blob:` in an <object>. With Vite's dev server (`dev`:
 * not production), its client's WebSocket is allowed too.
 */
export function pagePolicy(nonce: string, options: { dev: boolean }): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'nonce-${nonce}'`, "'report-sample'"],
    'style-src': ["'self'", `'nonce-${nonce}'`, "'report-sample'"],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'self'", 'blob:'],
    'frame-src': ["'self'", 'blob:'],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
    'connect-src': options.dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}

/** Headers every answer carries; a download replaces the CSP with `sandbox` (file_download.ts). */
export function securityHeaders(nonce: string, options: { dev: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': pagePolicy(nonce, options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  }
}
