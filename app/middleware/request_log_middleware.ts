import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { redactText } from '#services/logging/redaction'

/**
 * Writes one structured log line per request (method, url, status, duration)
 * through the request's logger, which carries the request id. The path is
 * logged without its query string and with secret segments (reset, login
 * and reverse-share tokens) replaced, so a log reader cannot use them.
 */
export default class RequestLogMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const started = process.hrtime.bigint()
    try {
      return await next()
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6
      ctx.logger.info(
        {
          method: ctx.request.method(),
          url: redactText(ctx.request.url()),
          status: ctx.response.getStatus(),
          durationMs: Math.round(durationMs * 10) / 10,
        },
        'request completed'
      )
    }
  }
}
