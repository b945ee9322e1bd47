/*
|--------------------------------------------------------------------------
| Reverse shares (Pingvin-compatible, see docs/api.md)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ReverseSharesController = () =>
  import('#controllers/reverse_shares/reverse_shares_controller')

router
  .group(() => {
    router.get('', [ReverseSharesController, 'index']).as('index').use(middleware.auth())
    router.post('', [ReverseSharesController, 'store']).as('store').use(middleware.auth())
    router.get(':token', [ReverseSharesController, 'show']).as('show')
    router.delete(':id', [ReverseSharesController, 'destroy']).as('destroy').use(middleware.auth())
  })
  .prefix('/api/reverseShares')
  .as('reverseShares')
