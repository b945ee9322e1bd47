import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import type { StatusPageRange, StatusPageRenderer } from '@adonisjs/core/types/http'
import { errorBody, statusOf } from '#exceptions/error_body'
import { requestBodyError } from '#exceptions/request_body_errors'
import { diskFullError } from '#exceptions/disk_full'
import { isRedisUnavailable, redisOutageFor } from '#services/system/redis_outage'

/**
 * `/api/*` always answers JSON of the contract's shape
 * (`{statusCode, message, error}`, docs/api.md "Errors"), never a stack, path or SQL. Pages get
 * Inertia pages: the 404 page or the generic error page.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = false

  protected renderStatusPages = true

  protected statusPages: Record<StatusPageRange, StatusPageRenderer> = {
    '404': (_, ctx) => this.#renderPage(ctx, 'errors/not_found', 404),
    '400..403': (error, ctx) => this.#renderPage(ctx, 'errors/server_error', statusOf(error)),
    '405..599': (error, ctx) => this.#renderPage(ctx, 'errors/server_error', statusOf(error)),
  }

  async #renderPage(ctx: HttpContext, component: string, status: number) {
    ctx.response.status(status)
    if (!ctx.inertia) {
      const { default: InertiaMiddleware } = await import('#middleware/inertia_middleware')
      await new InertiaMiddleware().init(ctx)
    }
    return ctx.inertia.render(component as never, { status } as never)
  }

  async handle(error: unknown, ctx: HttpContext) {
    // Body-parser failures (absurd nesting, broken JSON) become a clear 400.
    error = requestBodyError(error)
    // No space left (file system or database): 507 saying nothing was saved.
    error = diskFullError(error)
    // Redis away (rate limits, locks): 503 with Retry-After, never 500.
    const outage = redisOutageFor(error)
    if (outage) {
      ctx.response.header('Retry-After', String(outage.retryAfter))
      error = outage
    }
    // A refusal that a later retry may pass (an upload still being assembled) says when.
    const retryAfter = (error as { retryAfter?: unknown } | null)?.retryAfter
    if (typeof retryAfter === 'number' && !ctx.response.getHeader('Retry-After')) {
      ctx.response.header('Retry-After', String(retryAfter))
    }
    if (ctx.request.url().startsWith('/api/') || ctx.request.url() === '/api') {
      const body = errorBody(error)
      return ctx.response.status(body.statusCode).send(body)
    }
    return super.handle(error, ctx)
  }

  async report(error: unknown, ctx: HttpContext) {
    // One warning per refused request; the outage itself is logged once by start/redis.ts.
    if (isRedisUnavailable(error))
      return ctx.logger.warn('request refused with 503: Redis unavailable')
    return super.report(error, ctx)
  }
}

export const inDebug = !app.inProduction
