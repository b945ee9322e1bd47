/*
|--------------------------------------------------------------------------
| Pages (Inertia, server-rendered)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const HomeController = () => import('#controllers/pages/home_controller')
const AuthPagesController = () => import('#controllers/pages/auth_pages_controller')
const AccountPagesController = () => import('#controllers/pages/account_pages_controller')
const LegalPagesController = () => import('#controllers/pages/legal_pages_controller')

router
  .group(() => {
    router.get('/', [HomeController, 'show']).as('home')

    router.get('/auth/signIn', [AuthPagesController, 'signIn']).as('pages.auth.signIn')
    router.get('/auth/signUp', [AuthPagesController, 'signUp']).as('pages.auth.signUp')
    router
      .get('/auth/resetPassword', [AuthPagesController, 'forgotPassword'])
      .as('pages.auth.forgotPassword')
    router
      .get('/auth/resetPassword/:token', [AuthPagesController, 'resetPassword'])
      .as('pages.auth.resetPassword')
    router.get('/auth/totp/:loginToken', [AuthPagesController, 'totp']).as('pages.auth.totp')
    router.get('/goodbye', [AuthPagesController, 'goodbye']).as('pages.goodbye')

    router.get('/account', [AccountPagesController, 'show']).as('pages.account')

    router.get('/imprint', [LegalPagesController, 'imprint']).as('pages.imprint')
    router.get('/privacy', [LegalPagesController, 'privacy']).as('pages.privacy')
  })
  .use(middleware.inertia())
