/*
|--------------------------------------------------------------------------
| Social login (spec/api.md §2)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const OauthController = () => import('#controllers/oauth/oauth_controller')

router
  .group(() => {
    router.get('available', [OauthController, 'available']).as('available')
  })
  .prefix('/api/oauth')
  .as('oauth')
