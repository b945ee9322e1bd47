import type { HttpContext } from '@adonisjs/core/http'
import type { ConfigViewOptions } from '#services/config/config_service'

/**
 * The configuration view a request asks for: Tern's own clients (the admin
 * panel) opt in to Tern's extensions with `?ext=1` (or `ext=true`); any other
 * client gets what Pingvin 1.x defines. A query parameter,
 * not a header, so a cache in front of the public `GET /api/configs` keeps
 * the two answers apart without `Vary`.
 */
export function configViewOf(request: HttpContext['request']): ConfigViewOptions {
  const ext = request.qs().ext
  return { pingvin: !(ext === '1' || ext === 'true') }
}
