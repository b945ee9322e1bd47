/*
|--------------------------------------------------------------------------
| Social login (Pingvin-compatible, see docs/api.md)
|--------------------------------------------------------------------------
*/
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { registerSignOutRedirect } from '#services/auth/sign_out_redirect'
import OauthService from '#services/oauth/oauth_service'

const OauthController = () => import('#controllers/oauth/oauth_controller')
const ErrorPageController = () => import('#controllers/oauth/error_page_controller')

// Sessions signed in with an OIDC ID token may end at the provider too (oauth.oidc-signOut).
registerSignOutRedirect(async (session) => {
  if (!session.oauthIdToken) return null
  const oauth = await app.container.make(OauthService)
  return oauth.signOutUrl(session.oauthIdToken)
})

router
  .group(() => {
    router.get('available', [OauthController, 'available']).as('available')
    router.get('auth/:provider', [OauthController, 'authorize']).as('authorize')
    router.get('callback/:provider', [OauthController, 'callback']).as('callback')
    router
      .group(() => {
        router.get('status', [OauthController, 'status']).as('status')
        router.post('unlink/:provider', [OauthController, 'unlink']).as('unlink')
      })
      .use(middleware.auth())
  })
  .prefix('/api/oauth')
  .as('oauth')

router.get('/error', [ErrorPageController, 'show']).use(middleware.inertia()).as('pages.error')
