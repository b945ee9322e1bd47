/*
|--------------------------------------------------------------------------
| System: health, metrics, admin-panel manifest, logo and icons
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const HealthController = () => import('#controllers/system/health_controller')
const MetricsController = () => import('#controllers/system/metrics_controller')
const AdminPluginsController = () => import('#controllers/system/admin_plugins_controller')
const BrandingImagesController = () => import('#controllers/system/branding_images_controller')

router
  .group(() => {
    router.get('health', [HealthController]).as('health')
    router.get('health/live', [HealthController, 'live']).as('health.live')
    router.get('health/ready', [HealthController, 'ready']).as('health.ready')
    router
      .get('admin/plugins', [AdminPluginsController])
      .as('admin.plugins')
      .use(middleware.admin())
  })
  .prefix('/api')
  .as('system')

/** Prometheus metrics, off unless METRICS_TOKEN is set (see the controller). */
router.get('/metrics', [MetricsController]).as('metrics')

/**
 * The logo and the icons derived from it (uploaded, or the built-in ones).
 * Files that exist in public/ (logo.svg, favicon.svg) are answered by the
 * static middleware before these routes.
 */
router
  .group(() => {
    router.get('/img/icons/:icon', [BrandingImagesController, 'show']).as('icon')
    router.get('/img/:name', [BrandingImagesController, 'show']).as('image')
    router.get('/favicon.ico', [BrandingImagesController, 'favicon']).as('favicon')
  })
  .as('branding')
