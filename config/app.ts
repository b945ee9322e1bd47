import env from '#start/env'
import { defineConfig } from '@adonisjs/core/http'
import { answerBadUrl } from '#exceptions/bad_url'
import { trustedProxies } from '#services/security/trusted_proxies'

/**
 * The app key encrypts cookies and signs URLs. It comes from APP_KEY or is
 * generated once into DATA_DIR (see start/prepare.ts).
 */
export const appKey = env.get('APP_KEY')

/** Maps TRUST_PROXY to the http server's setting (default: loopback proxies only; lists compiled by us). */
function trustProxySetting(
  value: string | undefined
): boolean | string | ((address: string) => boolean) {
  if (value === undefined || value.trim() === '') return 'loopback'
  if (value === 'true' || value === 'false') return value === 'true'
  return trustedProxies(value)
}

/**
 * HTTP server settings.
 */
export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: true,
  /**
   * Only trusted proxies may set X-Forwarded-For and X-Forwarded-Proto: rate
   * limits key on the client IP, so trusting everyone would let any client
   * pick its own, and the scheme decides HSTS and Secure cookies. The default
   * trusts loopback, so every local process too (docs/operations.md, "Client
   * addresses, HTTPS and locked accounts").
   */
  trustProxy: trustProxySetting(env.get('TRUST_PROXY')),
  /** A URL that cannot be decoded (`%FF`) is a 400 with the API's JSON error body under /api. */
  onBadUrl: answerBadUrl,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: false,
    sameSite: 'lax',
  },
})
