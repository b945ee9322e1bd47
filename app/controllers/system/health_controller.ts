import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'

/**
 * GET /api/health: 200 "OK" when the database answers, else 503.
 */
export default class HealthController {
  async handle({ response, logger }: HttpContext) {
    try {
      await db.rawQuery('SELECT 1')
      return response.ok('OK')
    } catch (error) {
      logger.error({ err: error }, 'health check: database unreachable')
      return response.serviceUnavailable({
        statusCode: 503,
        message: 'Database unavailable',
        error: 'Service Unavailable',
      })
    }
  }
}
