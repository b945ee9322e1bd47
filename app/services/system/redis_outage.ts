/**
 * What Tern does while Redis (REDIS_URL) is unreachable. The client in
 * config/redis.ts reconnects forever and refuses commands at once while it is
 * not connected (no offline queue), so a route that needs Redis (rate limits,
 * locks) fails fast with one of the errors recognised here; the exception
 * handler answers them 503 with `Retry-After` instead of 500, and the same
 * process serves again as soon as the connection is back.
 */
import { Exception } from '@adonisjs/core/exceptions'
import env from '#start/env'

/**
 * Whether this process uses Redis: REDIS_URL is set (limits and locks), or
 * LIMITER_STORE=redis forces the limiter onto it (127.0.0.1:6379 by default).
 */
export function redisInUse(): boolean {
  return Boolean(env.get('REDIS_URL')) || env.get('LIMITER_STORE') === 'redis'
}

/** Seconds a client is asked to wait before trying again during an outage. */
export const REDIS_RETRY_AFTER_SECONDS = 5

/** The message answered while Redis is away (a person reads it). */
export const REDIS_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable (its Redis server does not answer). Please try again in a few seconds.'

/**
 * Messages and names of the errors ioredis rejects a command with when the
 * server is not reachable, and of replies a server gives while not ready.
 */
const CONNECTION_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Command timed out',
  'Redis connection is not ready',
]
const NOT_READY_REPLIES = ['LOADING', 'MASTERDOWN', 'TRYAGAIN', 'CLUSTERDOWN']

/**
 * Whether `error` means "Redis is not reachable right now" (not a bug), also
 * when another error wraps it (`cause`).
 */
export function isRedisUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error)) return false
  if (depth < 3 && error.cause && isRedisUnavailable(error.cause, depth + 1)) return true
  if (error instanceof RedisUnavailableException) return true
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'ClusterAllFailedError')
    return true
  const message = error.message ?? ''
  if (error.name === 'ReplyError')
    return NOT_READY_REPLIES.some((reply) => message.startsWith(reply))
  return CONNECTION_MESSAGES.some((text) => message.includes(text))
}

/** 503 answered while Redis is unreachable; carries its `Retry-After`. */
export class RedisUnavailableException extends Exception {
  static status = 503
  static code = 'E_REDIS_UNAVAILABLE'

  /** Seconds until the caller may try again. */
  readonly retryAfter = REDIS_RETRY_AFTER_SECONDS

  /** The exact API body (see #exceptions/error_body): 5xx bodies are otherwise generic. */
  readonly responseBody = {
    statusCode: 503,
    message: REDIS_UNAVAILABLE_MESSAGE,
    error: 'Service Unavailable',
  }

  constructor(options?: { cause?: unknown }) {
    super(REDIS_UNAVAILABLE_MESSAGE, options)
  }
}

/**
 * The 503 to answer instead of `error` when it is a Redis outage, else null.
 * Used by the exception handler, so every route using Redis is covered.
 */
export function redisOutageFor(error: unknown): RedisUnavailableException | null {
  if (error instanceof RedisUnavailableException) return error
  return isRedisUnavailable(error) ? new RedisUnavailableException({ cause: error }) : null
}
