/**
 * `Strict-Transport-Security`: once a browser has seen it over HTTPS, it
 * uses only HTTPS for the host until `max-age` runs out. Sent by
 * SecurityHeadersMiddleware on answers to requests that came over HTTPS
 * (TLS on the socket, or `X-Forwarded-Proto: https` from a proxy TRUST_PROXY
 * trusts) and never over plain HTTP: browsers ignore it there, and an
 * instance reached by plain HTTP on a LAN must not start refusing visitors
 * because someone once opened it through an HTTPS proxy. @adonisjs/shield's
 * own HSTS guard is off (config/shield.ts) because it would send it on every
 * answer, whatever the scheme.
 *
 * HSTS_MAX_AGE (seconds, default 180 days: what scanners such as Mozilla
 * Observatory ask at least) and HSTS_INCLUDE_SUBDOMAINS (default off: it
 * would force HTTPS on every other site under Tern's host name too) are read
 * at each answer. `preload` is not offered: it asks browsers to hard-code the
 * domain, a decision for the domain's owner, not for one of its services.
 */
import env from '#start/env'

/** Default max-age: 180 days. */
export const DEFAULT_HSTS_MAX_AGE = 180 * 24 * 60 * 60

/** The header's value for the current settings, e.g. `max-age=15552000`. */
export function strictTransportSecurity(): string {
  const maxAge = env.get('HSTS_MAX_AGE') ?? DEFAULT_HSTS_MAX_AGE
  return env.get('HSTS_INCLUDE_SUBDOMAINS')
    ? `max-age=${maxAge}; includeSubDomains`
    : `max-age=${maxAge}`
}
