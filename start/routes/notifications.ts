/*
|--------------------------------------------------------------------------
| Notification outbox (admin): failed deliveries, retry, discard
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const DeliveriesController = () => import('#controllers/notifications/deliveries_controller')

router
  .group(() => {
    router.get('', [DeliveriesController, 'index']).as('index')
    router.post(':id/retry', [DeliveriesController, 'retry']).as('retry')
    router.delete(':id', [DeliveriesController, 'destroy']).as('destroy')
  })
  .prefix('/api/notifications/deliveries')
  .as('notifications.deliveries')
  .use(middleware.admin())
