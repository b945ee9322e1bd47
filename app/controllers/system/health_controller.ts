import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { REDIS_RETRY_AFTER_SECONDS, redisInUse } from '#services/system/redis_outage'

/** How long Redis may take to answer PING before it counts as down. */
const REDIS_PING_TIMEOUT_MS = 1500

/** Resolves when Redis answers PING, rejects when it does not (in time). */
async function pingRedis() {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Redis PING timed out')), REDIS_PING_TIMEOUT_MS)
  })
  try {
    await Promise.race([redis.connection().ping(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * GET /api/health: 200 "OK" when the database (and Redis, when it is used)
 * answers, else 503 naming what does not, so a load balancer takes the
 * instance out of rotation while it cannot serve sign-ins.
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
        await pingRedis()
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
}
