/**
 * Rate limits of the routes that can be used to guess (spec/api.md §1):
 * sign-in, TOTP sign-in, sign-up, password reset (and, later, share
 * passwords). Each action is limited per client IP and per identifier
 * (account, e-mail address, token...), with counters in the limiter's store
 * (database by default, Redis when configured), so several Tern processes
 * share them.
 *
 * Limits come from the environment: `RATE_LIMIT_WINDOW` (default
 * "1 minute"), `RATE_LIMIT_PER_IDENTIFIER` (default 10) and
 * `RATE_LIMIT_PER_IP` (default 30). Over the limit: 429
 * `{statusCode: 429, message: 'Too many requests', error: 'Too Many Requests'}`
 * with a `Retry-After` header (seconds).
 *
 * Two ways to count:
 * - `consume` counts every request (sign-up, reset requests);
 * - `check` + `fail` count failed attempts only (sign-in, TOTP codes), so a
 *   user who signs in correctly is never locked out by their own successes.
 */
import type { HttpContext } from '@adonisjs/core/http'
import string from '@adonisjs/core/helpers/string'
import limiter from '@adonisjs/limiter/services/main'
import type { LimiterResponse } from '@adonisjs/limiter'
import env from '#start/env'
import { TooManyRequestsException } from '#services/auth/auth_errors'
import { hashToken } from '#services/auth/tokens'

/** Default window of every limit. */
export const DEFAULT_RATE_LIMIT_WINDOW = '1 minute'
/** Default attempts per window and identifier. */
export const DEFAULT_RATE_LIMIT_PER_IDENTIFIER = 10
/** Default attempts per window and IP. */
export const DEFAULT_RATE_LIMIT_PER_IP = 30

/** The current limits (read from the environment at every call). */
export interface RateLimits {
  /** Window length in seconds. */
  windowSeconds: number
  perIdentifier: number
  perIp: number
}

/** The limits in force. */
export function rateLimits(): RateLimits {
  const window = env.get('RATE_LIMIT_WINDOW') ?? DEFAULT_RATE_LIMIT_WINDOW
  let windowSeconds: number
  try {
    windowSeconds = Math.max(1, Math.round(string.seconds.parse(window)))
  } catch {
    windowSeconds = 60
  }
  return {
    windowSeconds: Number.isFinite(windowSeconds) ? windowSeconds : 60,
    perIdentifier: Math.max(1, env.get('RATE_LIMIT_PER_IDENTIFIER') ?? DEFAULT_RATE_LIMIT_PER_IDENTIFIER),
    perIp: Math.max(1, env.get('RATE_LIMIT_PER_IP') ?? DEFAULT_RATE_LIMIT_PER_IP),
  }
}

interface Bucket {
  key: string
  limit: number
}

/** Limits attempts per IP and per identifier. Use the `rateLimiter` singleton. */
export class RateLimiter {
  #buckets(ctx: HttpContext, action: string, identifier?: string | null): Bucket[] {
    const limits = rateLimits()
    const buckets: Bucket[] = [{ key: `${action}:ip:${ctx.request.ip()}`, limit: limits.perIp }]
    if (identifier) {
      // Digest: keys have a bounded length and never hold an e-mail address in clear.
      const normalized = identifier.trim().toLowerCase()
      buckets.push({ key: `${action}:id:${hashToken(normalized).slice(0, 40)}`, limit: limits.perIdentifier })
    }
    return buckets
  }

  #limiterFor(limit: number) {
    return limiter.use({ requests: limit, duration: rateLimits().windowSeconds })
  }

  #refuse(ctx: HttpContext, responses: (LimiterResponse | null)[]): never {
    const retryAfter = Math.max(1, ...responses.map((response) => response?.availableIn ?? 1))
    ctx.response.header('Retry-After', String(retryAfter))
    throw new TooManyRequestsException(retryAfter)
  }

  /** Throws 429 when the IP or the identifier has no attempt left (counts nothing). */
  async check(ctx: HttpContext, action: string, identifier?: string | null): Promise<void> {
    const exhausted: LimiterResponse[] = []
    for (const bucket of this.#buckets(ctx, action, identifier)) {
      const response = await this.#limiterFor(bucket.limit).get(bucket.key)
      if (response && response.consumed >= response.limit) exhausted.push(response)
    }
    if (exhausted.length > 0) this.#refuse(ctx, exhausted)
  }

  /** Counts a failed attempt for the IP and the identifier. */
  async fail(ctx: HttpContext, action: string, identifier?: string | null): Promise<void> {
    for (const bucket of this.#buckets(ctx, action, identifier)) {
      await this.#limiterFor(bucket.limit).increment(bucket.key)
    }
  }

  /** Counts this request for the IP and the identifier; 429 when that goes over a limit. */
  async consume(ctx: HttpContext, action: string, identifier?: string | null): Promise<void> {
    await this.check(ctx, action, identifier)
    const over: LimiterResponse[] = []
    for (const bucket of this.#buckets(ctx, action, identifier)) {
      const response = await this.#limiterFor(bucket.limit).increment(bucket.key)
      if (response.consumed > response.limit) over.push(response)
    }
    if (over.length > 0) this.#refuse(ctx, over)
  }

  /** Forgets the counters of an IP and identifier (e.g. tests). */
  async reset(ctx: HttpContext, action: string, identifier?: string | null): Promise<void> {
    for (const bucket of this.#buckets(ctx, action, identifier)) {
      await this.#limiterFor(bucket.limit).delete(bucket.key)
    }
  }
}

/** The rate limiter of this process. */
export const rateLimiter = new RateLimiter()
