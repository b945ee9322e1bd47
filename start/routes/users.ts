/*
|--------------------------------------------------------------------------
| Users (Pingvin-compatible, see docs/api.md) and personal API tokens (a Tern addition)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const MeController = () => import('#controllers/users/me_controller')
const AdminUsersController = () => import('#controllers/users/admin_users_controller')
const ApiTokensController = () => import('#controllers/api_tokens/api_tokens_controller')

router
  .group(() => {
    router
      .group(() => {
        router.get('me', [MeController, 'show']).as('me.show')
        router.patch('me', [MeController, 'update']).as('me.update')
        router.delete('me', [MeController, 'destroy']).as('me.destroy')

        router.get('me/apiTokens', [ApiTokensController, 'index']).as('apiTokens.index')
        router.post('me/apiTokens', [ApiTokensController, 'store']).as('apiTokens.store')
        router.delete('me/apiTokens/:id', [ApiTokensController, 'destroy']).as('apiTokens.destroy')
      })
      .use(middleware.auth())

    router
      .group(() => {
        router.get('', [AdminUsersController, 'index']).as('index')
        router.post('', [AdminUsersController, 'store']).as('store')
        router.patch(':id', [AdminUsersController, 'update']).as('update')
        router.delete(':id', [AdminUsersController, 'destroy']).as('destroy')
      })
      .use(middleware.admin())
  })
  .prefix('/api/users')
  .as('users')
