/**
 * Serves Vite's build output under /assets/ through #services/http/hashed_assets
 * (immutable caching, brotli/gzip made once and kept in memory, 304 on
 * If-None-Match) and refuses the server's own files there with a 404: the SSR
 * bundle (/assets/server/) and Vite's manifests (/assets/.vite/), which the
 * server reads from disk (config/vite.ts) and nobody needs over HTTP.
 * Anything it does not serve (no such file, in development and tests Vite's
 * dev server) passes on to the static and Vite middleware.
 */
import { errors, type HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { hashedAssets } from '#config/static'
import HashedAssets from '#services/http/hashed_assets'

const PREFIX = '/assets/'

/** One per process: Adonis makes a middleware instance per request, the cache must outlive it. */
const assets = new HashedAssets(hashedAssets)

export default class HashedAssetsMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const path = ctx.request.url()
    if (!path.startsWith(PREFIX)) return next()
    const relPath = path.slice(PREFIX.length)
    if (assets.isPrivate(relPath)) {
      throw new errors.E_ROUTE_NOT_FOUND([ctx.request.method(), path])
    }
    const answer = await assets.answer(relPath, {
      method: ctx.request.method(),
      headers: ctx.request.request.headers,
    })
    if (!answer) return next()
    ctx.response.status(answer.status)
    for (const [name, value] of Object.entries(answer.headers)) ctx.response.header(name, value)
    ctx.response.send(answer.body)
  }
}
