import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { REDIS_RETRY_AFTER_SECONDS, redisInUse } from '#services/system/redis_outage'
import { READINESS_CHECK_TIMEOUT_MS, checkReadiness, pingRedis } from '#services/system/readiness'

/** Resolves when Redis answers PING, rejects when it does not (in time). */
async function pingRedisInTime() {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Redis PING timed out')), READINESS_CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([pingRedis(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Health routes. `/api/health` answers as Pingvin Share's did (200 "OK"),
 * and 503 naming the database or Redis when one does not answer, so a load
 * balancer takes the instance out while it cannot serve sign-ins.
 * `/api/health/live` and `/api/health/ready` are the orchestrator probes.
 */
export default class HealthController {
  async handle({ response, logger }: HttpContext) {
    try {
      await db.rawQuery('SELECT 1')
    } catch (error) {
      logger.error({ err: error }, 'health check: database unreachable')
      return response.serviceUnavailable({
        statusCode: 503,
        message: 'Database unavailable',
        error: 'Service Unavailable',
      })
    }
    if (redisInUse()) {
      try {
        await pingRedisInTime()
      } catch (error) {
        logger.warn({ err: error }, 'health check: Redis unreachable')
        response.header('Retry-After', String(REDIS_RETRY_AFTER_SECONDS))
        return response.serviceUnavailable({
          statusCode: 503,
          message: 'Redis unavailable',
          error: 'Service Unavailable',
        })
      }
    }
    return response.ok('OK')
  }

  /** Liveness: the process answers HTTP; no dependency is asked (an outage must not restart it). */
  live({ response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    return response.ok({ status: 'ok' })
  }

  /** Readiness: database, Redis (when used) and the default storage, each check's state; 503 when one fails. */
  async ready({ response }: HttpContext) {
    const readiness = await checkReadiness()
    response.header('Cache-Control', 'no-store')
    if (readiness.ready) return response.ok({ status: 'ok', checks: readiness.checks })
    const failed = Object.entries(readiness.checks)
      .filter(([, result]) => result.status === 'failed')
      .map(([name]) => name)
    if (readiness.checks.redis.status === 'failed') {
      response.header('Retry-After', String(REDIS_RETRY_AFTER_SECONDS))
    }
    return response.serviceUnavailable({
      statusCode: 503,
      message: `Not ready: ${failed.join(', ')} failing`,
      error: 'Service Unavailable',
      checks: readiness.checks,
    })
  }
}
