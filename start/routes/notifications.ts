/*
|--------------------------------------------------------------------------
| Notifications: the outbox (admin: failed deliveries, retry, discard) and
| the routes of events to channels (admin: instance routes; users: their own)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const DeliveriesController = () => import('#controllers/notifications/deliveries_controller')
const NotificationRoutesController = () =>
  import('#controllers/notifications/notification_routes_controller')

router
  .group(() => {
    router.get('', [DeliveriesController, 'index']).as('index')
    router.post(':id/retry', [DeliveriesController, 'retry']).as('retry')
    router.delete(':id', [DeliveriesController, 'destroy']).as('destroy')
  })
  .prefix('/api/notifications/deliveries')
  .as('notifications.deliveries')
  .use(middleware.admin())

router
  .group(() => {
    router.get('', [NotificationRoutesController, 'showInstance']).as('show')
    router.put('', [NotificationRoutesController, 'updateInstance']).as('update')
  })
  .prefix('/api/notifications/routes')
  .as('notifications.routes')
  .use(middleware.admin())

router
  .group(() => {
    router.get('', [NotificationRoutesController, 'showOwn']).as('show')
    router.put('', [NotificationRoutesController, 'updateOwn']).as('update')
  })
  .prefix('/api/user/notifications')
  .as('user.notifications')
  .use(middleware.auth())
