/*
|--------------------------------------------------------------------------
| Configuration variables (spec/api.md §6)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ConfigsController = () => import('#controllers/configs/configs_controller')
const AdminConfigsController = () => import('#controllers/configs/admin_configs_controller')

router
  .group(() => {
    router.get('configs', [ConfigsController, 'index']).as('index')

    router
      .group(() => {
        router.get(':category', [AdminConfigsController, 'show']).as('show')
        router.patch('', [AdminConfigsController, 'update']).as('update')
        router.post('testEmail', [() => import('#controllers/configs/test_email_controller'), 'handle']).as('testEmail')
      })
      .prefix('configs/admin')
      .as('admin')
      .use(middleware.admin())
  })
  .prefix('/api')
  .as('configs')
