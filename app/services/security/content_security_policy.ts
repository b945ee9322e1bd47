/**
 * The per-answer Content-Security-Policy nonce of Tern's pages
 * and the headers @adonisjs/shield does not set. The policy itself
 * is config/shield.ts; Shield writes it, SecurityHeadersMiddleware adds the rest.
 *
 * Scripts and <style> elements run only with the request's nonce: the Edge
 * shells put it on theirs (and on Vite's tags), the browser code reads it
 * from `<meta property="csp-nonce">` for antd's CSS-in-JS, Inertia's
 * progress bar and Vite's dev styles. The SSR entry cannot see the request,
 * so it marks the styles it extracted with a per-process placeholder, which
 * the middleware swaps for the nonce (an attacker cannot guess it).
 */
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'

/** Key under which the SSR entry (inertia/ssr.tsx) finds the placeholder on `globalThis`. */
export const NONCE_PLACEHOLDER_KEY = Symbol.for('tern.cspNoncePlaceholder')

/** Stands for the nonce in server-rendered HTML until the middleware replaces it. */
export const NONCE_PLACEHOLDER = `tern-csp-nonce-${randomBytes(18).toString('base64url')}`
;(globalThis as Record<symbol, unknown>)[NONCE_PLACEHOLDER_KEY] = NONCE_PLACEHOLDER

const nonces = new WeakMap<ServerResponse, string>()

/**
 * The nonce of one answer: 128 random bits (base64), made on first use and
 * the same for every later call with that response. Shield's own nonce is
 * 96 bits, so the policy's directives ask this one (`nonceSource`).
 */
export function responseNonce(response: ServerResponse): string {
  let nonce = nonces.get(response)
  if (nonce === undefined) {
    nonce = randomBytes(16).toString('base64')
    nonces.set(response, nonce)
  }
  return nonce
}

/** A CSP source for Shield's directives: `'nonce-…'` of the answer being written. */
export function nonceSource(_request: unknown, response: ServerResponse): string {
  return `'nonce-${responseNonce(response)}'`
}

/** Headers every answer carries that Shield has no guard for. */
export const EXTRA_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'same-origin',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
}
