/*
|--------------------------------------------------------------------------
| HTTP kernel
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

/**
 * Server middleware runs on every request, even without a matching route.
 */
server.use([
  // First, so /metrics counts every request, static files and 404s included.
  () => import('#middleware/metrics_middleware'),
  // Brotli/gzip for pages, JSON and text; never downloads, ranges or hashed assets.
  () => import('#middleware/compression_middleware'),
  () => import('#middleware/container_bindings_middleware'),
  // ctx.auth (config/auth.ts) on every request, so error pages of unrouted requests know the caller too.
  () => import('@adonisjs/auth/initialize_auth_middleware'),
  () => import('#middleware/request_log_middleware'),
  // Shield's headers (config/shield.ts), then the ones it lacks, the CSP nonce and its SSR placeholder.
  () => import('@adonisjs/shield/shield_middleware'),
  () => import('#middleware/security_headers_middleware'),
  // Vite's hashed /assets/*: immutable, compressed once; its SSR bundle and manifest refused.
  () => import('#middleware/hashed_assets_middleware'),
  () => import('@adonisjs/static/static_middleware'),
  () => import('@adonisjs/vite/vite_middleware'),
  () => import('#middleware/locale_middleware'),
])

/**
 * Router middleware runs on requests with a route.
 */
router.use([
  () => import('@adonisjs/core/bodyparser_middleware'),
  // Refuses parsed bodies nested too deeply or with invalid Unicode (400), before any validator.
  () => import('#middleware/body_guard_middleware'),
  // ctx.bouncer: authorization through the policies of app/policies.
  () => import('#middleware/initialize_bouncer_middleware'),
])

/**
 * Named middleware, assigned per route or group.
 */
export const middleware = router.named({
  inertia: () => import('#middleware/inertia_middleware'),
  auth: () => import('#middleware/auth_middleware'),
  admin: () => import('#middleware/admin_middleware'),
})
