import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import { REDIS_RETRY_AFTER_SECONDS, redisInUse } from '#services/system/redis_outage'
import ReadinessService from '#services/system/readiness'
import HealthTransformer from '#transformers/health_transformer'

/**
 * Health routes. `/api/health` answers as Pingvin Share's did (200 "OK"),
 * and 503 naming the database or Redis when one does not answer, so a load
 * balancer takes the instance out while it cannot serve sign-ins.
 * `/api/health/live` and `/api/health/ready` are the orchestrator probes.
 */
@inject()
export default class HealthController {
  constructor(protected readiness: ReadinessService) {}

  async handle({ response, logger }: HttpContext) {
    try {
      await this.readiness.pingDatabase()
    } catch (error) {
      logger.error({ err: error }, 'health check: database unreachable')
      return response.serviceUnavailable(HealthTransformer.failure('Database unavailable'))
    }
    if (redisInUse()) {
      try {
        await this.readiness.pingRedis()
      } catch (error) {
        logger.warn({ err: error }, 'health check: Redis unreachable')
        response.header('Retry-After', String(REDIS_RETRY_AFTER_SECONDS))
        return response.serviceUnavailable(HealthTransformer.failure('Redis unavailable'))
      }
    }
    return response.ok('OK')
  }

  /** Liveness: the process answers HTTP; no dependency is asked (an outage must not restart it). */
  live({ response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    return response.ok(HealthTransformer.live())
  }

  /** Readiness: database, Redis (when used) and the default storage, each check's state; 503 when one fails. */
  async ready({ response }: HttpContext) {
    const readiness = await this.readiness.check()
    response.header('Cache-Control', 'no-store')
    if (readiness.ready) return response.ok(HealthTransformer.toJSON(readiness))
    if (readiness.checks.redis.status === 'failed') {
      response.header('Retry-After', String(REDIS_RETRY_AFTER_SECONDS))
    }
    return response.serviceUnavailable(HealthTransformer.toJSON(readiness))
  }
}
