import router from '@adonisjs/core/services/router'

const HealthController = () => import('#controllers/system/health_controller')

router
  .group(() => {
    router.get('health', [HealthController]).as('health')
  })
  .prefix('/api')
  .as('system')
