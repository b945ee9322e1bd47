/**
 * Rate limits of the routes that can be used to guess: sign-in, TOTP
 * sign-in, sign-up, password reset, share passwords. Counters live in the
 * limiter's store (database by default, Redis when configured), so several
 * Tern processes share them.
 *
 * Consume first, then check the secret: an attempt takes its point with one
 * atomic increment-and-read of the store (an upsert on the database, a Lua
 * script on Redis) BEFORE the password, code or token is looked at. A
 * hundred parallel guesses therefore get exactly `limit` secret checks,
 * never "check, verify, count" races that let dozens through.
 *
 * Buckets, taken in this order (the first one over its limit refuses, and
 * the later ones are not touched, so a refused attacker adds nothing to
 * the buckets that protect the victim elsewhere):
 * 1. per client IP and action: `RATE_LIMIT_PER_IP` (default 30);
 * 2. per account (or share, e-mail...) and IP: `RATE_LIMIT_PER_IDENTIFIER`
 *    (default 10);
 * 3. per account across every address: `RATE_LIMIT_PER_ACCOUNT` (default
 *    100), a ceiling against distributed guessing that one address cannot
 *    fill, so an attacker cannot lock out a user who signs in elsewhere.
 *    Many addresses can fill it, and so can one client that may choose its
 *    address (X-Forwarded-For from a trusted proxy address, see
 *    TRUST_PROXY): then the account is refused to everyone. So a request
 *    that proves an earlier successful sign-in of this account on this
 *    device (the controller passes the device's id, see
 *    app/controllers/auth/known_device_cookie.ts) takes, instead, a
 *    bucket of that account and device with the per-identifier limit: the
 *    user's own browser gets in while the account is sprayed, and a stolen
 *    proof is limited by itself whatever address it is sent from. Buckets
 *    1 and 2 apply to it as to anyone.
 * All share `RATE_LIMIT_WINDOW` (default "1 minute"). Over a limit: 429
 * `{statusCode: 429, message: 'Too many requests', error: 'Too Many Requests'}`
 * with `Retry-After` (seconds; the exception handler writes it from the
 * exception's `retryAfter`).
 *
 * A secret that turns out right settles the attempt (`succeeded`): the
 * account-and-IP counter is reset and this request's points on the other
 * two are given back, so users are not locked out by their own successes.
 */
import ipaddr from 'ipaddr.js'
import { inject } from '@adonisjs/core'
import string from '@adonisjs/core/helpers/string'
import limiter from '@adonisjs/limiter/services/main'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { TooManyRequestsException } from '#services/auth/auth_errors'
import { hashToken } from '#services/auth/tokens'
import { rateLimitRefusals } from '#services/system/metrics'

/** Default window of every limit. */
export const DEFAULT_RATE_LIMIT_WINDOW = '1 minute'
/** Default attempts per window, account (or other identifier) and IP. */
export const DEFAULT_RATE_LIMIT_PER_IDENTIFIER = 10
/** Default attempts per window and IP. */
export const DEFAULT_RATE_LIMIT_PER_IP = 30
/** Default attempts per window and account, from all addresses together. */
export const DEFAULT_RATE_LIMIT_PER_ACCOUNT = 100

/** The current limits (read from the environment at every call). */
export interface RateLimits {
  /** Window length in seconds. */
  windowSeconds: number
  /** Per identifier (account, share, e-mail) and IP. */
  perIdentifier: number
  perIp: number
  /** Per identifier, all IPs together. */
  perAccount: number
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
    perIdentifier: Math.max(
      1,
      env.get('RATE_LIMIT_PER_IDENTIFIER') ?? DEFAULT_RATE_LIMIT_PER_IDENTIFIER
    ),
    perIp: Math.max(1, env.get('RATE_LIMIT_PER_IP') ?? DEFAULT_RATE_LIMIT_PER_IP),
    perAccount: Math.max(1, env.get('RATE_LIMIT_PER_ACCOUNT') ?? DEFAULT_RATE_LIMIT_PER_ACCOUNT),
  }
}

/** The limiter store in use: `LIMITER_STORE`, else Redis when `REDIS_URL` is set, else the database. */
export function limiterStoreName(): 'database' | 'redis' | 'memory' {
  return env.get('LIMITER_STORE') ?? (env.get('REDIS_URL') ? 'redis' : 'database')
}

/**
 * The client address a limit counts: an IPv4 address as is, an IPv6 address
 * by its /64 network. One subscriber gets a whole /64, so counting single
 * IPv6 addresses would give an attacker 2^64 fresh counters.
 */
export function addressKey(ip: string): string {
  let address: ipaddr.IPv4 | ipaddr.IPv6
  try {
    // `process` turns an IPv4-mapped IPv6 address into its IPv4 address.
    address = ipaddr.process(ip)
  } catch {
    return ip
  }
  if (address.kind() === 'ipv4') return address.toString()
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((group) => group.toString(16))
  return `${network.join(':')}::/64`
}

/** What a successful attempt does to a bucket: reset it, or give back this request's point. */
type Settle = 'reset' | 'refund'

/** The /metrics label of each bucket kind (the second part of its key). */
const LIMIT_LABELS: Record<string, string> = {
  ip: 'ip',
  idip: 'identifier_ip',
  id: 'account',
  dev: 'device',
}

interface Bucket {
  key: string
  limit: number
  settle: Settle
}

function limiterFor(limit: number) {
  return limiter.use(limiterStoreName(), { requests: limit, duration: rateLimits().windowSeconds })
}

/** A bounded digest, so keys never hold an e-mail address in clear. */
function digest(value: string): string {
  return hashToken(value).slice(0, 40)
}

/**
 * One guess in progress. Created by `RateLimiter.attempt`, which has already
 * taken the IP point; `forAccount` takes the account points once the
 * account is known; `succeeded` settles after a right secret.
 */
export class RateLimitAttempt {
  readonly #ip: string
  readonly #action: string
  readonly #taken: Bucket[] = []

  /** `ip`: the client address (`request.ip()`), counted by `addressKey`. */
  constructor(action: string, ip: string) {
    this.#ip = addressKey(ip)
    this.#action = action
  }

  /** Takes one point of `bucket`; 429 (`retryAfter` seconds) when that goes over its limit. */
  async #take(bucket: Bucket): Promise<void> {
    const response = await limiterFor(bucket.limit).increment(bucket.key)
    this.#taken.push(bucket)
    if (response.consumed <= response.limit) return
    const retryAfter = Math.max(1, response.availableIn)
    rateLimitRefusals.inc({
      action: this.#action,
      limit: LIMIT_LABELS[bucket.key.split(':')[1]] ?? 'other',
    })
    throw new TooManyRequestsException(retryAfter)
  }

  /** Takes the point of the client address (IPv6: its /64). */
  async forIp(): Promise<void> {
    await this.#take({
      key: `${this.#action}:ip:${this.#ip}`,
      limit: rateLimits().perIp,
      settle: 'refund',
    })
  }

  /**
   * Takes the points of `identifier` (account id, share id, e-mail...) at
   * this IP, then across all IPs; or, when `knownDevice` (the id of a device
   * that proved an earlier successful sign-in of this account) is given, of
   * the account on that device instead of across all IPs.
   */
  async forAccount(identifier: string, knownDevice?: string | null): Promise<void> {
    const limits = rateLimits()
    const normalized = identifier.trim().toLowerCase()
    const ip = this.#ip
    const action = this.#action
    await this.#take({
      key: `${action}:idip:${digest(`${normalized}|${ip}`)}`,
      limit: limits.perIdentifier,
      settle: 'reset',
    })
    if (knownDevice) {
      await this.#take({
        key: `${action}:dev:${digest(`${normalized}|${knownDevice}`)}`,
        limit: limits.perIdentifier,
        settle: 'reset',
      })
      return
    }
    await this.#take({
      key: `${action}:id:${digest(normalized)}`,
      limit: limits.perAccount,
      settle: 'refund',
    })
  }

  /**
   * The secret was right: resets the account-and-IP counter and gives back
   * this request's other points. Best effort: the session or token is
   * already made, so a store that fails now must not turn it into an error
   * (the points then simply expire with the window).
   */
  async succeeded(): Promise<void> {
    for (const bucket of this.#taken.splice(0)) {
      const store = limiterFor(bucket.limit)
      try {
        if (bucket.settle === 'reset') await store.delete(bucket.key)
        else await store.decrement(bucket.key)
      } catch (error) {
        logger.warn(
          { err: error, action: this.#action },
          'rate-limit points of a successful attempt not given back'
        )
      }
    }
  }
}

/**
 * Limits guesses per IP, per identifier and IP, and per identifier. Resolve
 * it from the container or inject it.
 */
@inject()
export default class RateLimiter {
  /**
   * Starts an attempt of `action` from client address `ip`: takes the IP
   * point and, when `identifier` is given, the identifier's points (429 when
   * one of them is over its limit). Call it before the secret is checked,
   * never after.
   */
  async attempt(action: string, ip: string, identifier?: string | null): Promise<RateLimitAttempt> {
    const attempt = new RateLimitAttempt(action, ip)
    await attempt.forIp()
    if (identifier) await attempt.forAccount(identifier)
    return attempt
  }
}
