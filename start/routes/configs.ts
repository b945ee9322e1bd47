/*
|--------------------------------------------------------------------------
| Configuration variables (Pingvin-compatible, see docs/api.md)
|--------------------------------------------------------------------------
| Static paths (`version`) are declared before `:category`.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ConfigsController = () => import('#controllers/configs/configs_controller')
const AdminConfigsController = () => import('#controllers/configs/admin_configs_controller')
const TestEmailController = () => import('#controllers/configs/test_email_controller')
const FinishSetupController = () => import('#controllers/configs/finish_setup_controller')
const LogoController = () => import('#controllers/configs/logo_controller')
const VersionController = () => import('#controllers/system/version_controller')

router
  .group(() => {
    router.get('configs', [ConfigsController, 'index']).as('index')

    router
      .group(() => {
        router.get('', [AdminConfigsController, 'index']).as('categories')
        router.get('version', [VersionController]).as('version')
        router.get(':category', [AdminConfigsController, 'show']).as('show')
        router.patch('', [AdminConfigsController, 'update']).as('update')
        router.post('testEmail', [TestEmailController, 'handle']).as('testEmail')
        router.post('finishSetup', [FinishSetupController]).as('finishSetup')
        // Multipart processed by the controller after the admin check (config/bodyparser.ts).
        router.post('logo', [LogoController, 'store']).as('logo.store')
        router.delete('logo', [LogoController, 'destroy']).as('logo.destroy')
      })
      .prefix('configs/admin')
      .as('admin')
      .use(middleware.admin())
  })
  .prefix('/api')
  .as('configs')
