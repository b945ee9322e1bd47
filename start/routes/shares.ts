/*
|--------------------------------------------------------------------------
| Shares (Pingvin-compatible, see docs/api.md; Tern's additions in docs/api-extensions.md)
|--------------------------------------------------------------------------
| Static paths are declared before `:id` ones. `router.get` also answers HEAD.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SharesController = () => import('#controllers/shares/shares_controller')
const ShareTokensController = () => import('#controllers/shares/share_tokens_controller')
const ShareFilesController = () => import('#controllers/shares/share_files_controller')

router
  .group(() => {
    router.get('isShareIdAvailable/:id', [SharesController, 'isIdAvailable']).as('isIdAvailable')
    router.get('all', [SharesController, 'all']).as('all').use(middleware.admin())
    router.get('', [SharesController, 'index']).as('index').use(middleware.auth())
    router.post('', [SharesController, 'store']).as('store')

    router.get(':id', [SharesController, 'show']).as('show')
    router.patch(':id', [SharesController, 'update']).as('update')
    router.delete(':id', [SharesController, 'destroy']).as('destroy')
    router.get(':id/from-owner', [SharesController, 'fromOwner']).as('fromOwner')
    router.get(':id/metaData', [SharesController, 'metaData']).as('metaData')
    router.post(':id/complete', [SharesController, 'complete']).as('complete')
    router.delete(':id/complete', [SharesController, 'reopen']).as('reopen')
    router.post(':id/token', [ShareTokensController, 'store']).as('token')

    router.post(':id/files', [ShareFilesController, 'upload']).as('files.upload')
    router.get(':id/files/zip', [ShareFilesController, 'zip']).as('files.zip')
    router.get(':id/files/:fileId', [ShareFilesController, 'download']).as('files.download')
    router.delete(':id/files/:fileId', [ShareFilesController, 'destroy']).as('files.destroy')
  })
  .prefix('/api/shares')
  .as('shares')
