import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import env from '#start/env'

/** Route label of requests no route matched (static files, 404s): one value, not their URLs. */
const UNMATCHED = 'unmatched'

/**
 * Counts every request by method, route pattern and status, with its
 * duration until the answer was sent (a streamed body included), for
 * /metrics (#services/system/metrics). Does nothing when metrics are off (METRICS_TOKEN unset).
 */
export default class MetricsMiddleware {
  #metrics = env.get('METRICS_TOKEN') ? import('#services/system/metrics') : null

  async handle(ctx: HttpContext, next: NextFn) {
    if (!this.#metrics) return next()
    const { httpDuration, httpRequests } = await this.#metrics
    const started = process.hrtime.bigint()
    const raw = ctx.response.response
    // 'close' also fires when the client went away mid-answer (status "aborted").
    raw.once('close', () => {
      const labels = {
        method: ctx.request.method(),
        route: ctx.route?.pattern ?? UNMATCHED,
        status: raw.writableFinished ? String(raw.statusCode) : 'aborted',
      }
      httpRequests.inc(labels)
      httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9)
    })
    return next()
  }
}
