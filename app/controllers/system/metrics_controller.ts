import { createHash, timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { errors } from '@adonisjs/core/http'
import env from '#start/env'

/** A digest, so tokens of any length compare in constant time. */
const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * GET /metrics: the Prometheus text format (#services/system/metrics).
 * Off unless METRICS_TOKEN is set (then it answers 404 like any unknown
 * route, revealing nothing); on, only to `Authorization: Bearer <token>`.
 * With several HTTP workers, the metrics of all of them (the whole instance).
 */
export default class MetricsController {
  async handle({ request, response }: HttpContext) {
    const token = env.get('METRICS_TOKEN')
    if (!token) throw new errors.E_ROUTE_NOT_FOUND([request.method(), request.url()])
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.header('authorization') ?? '')?.[1] ?? ''
    if (!timingSafeEqual(digest(given), digest(token))) {
      response.header('WWW-Authenticate', 'Bearer realm="metrics"')
      return response.unauthorized({
        statusCode: 401,
        message: 'The metrics need the token of METRICS_TOKEN as "Authorization: Bearer <token>"',
        error: 'Unauthorized',
      })
    }
    const { metricsRegistry, instanceMetrics } = await import('#services/system/metrics')
    response.header('Content-Type', metricsRegistry.contentType)
    response.header('Cache-Control', 'no-store')
    return response.send(await instanceMetrics())
  }
}
