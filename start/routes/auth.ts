/*
|--------------------------------------------------------------------------
| Authentication (Pingvin-compatible, see docs/api.md)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const AuthController = () => import('#controllers/auth/auth_controller')
const AccountSecurityController = () => import('#controllers/auth/account_security_controller')

router
  .group(() => {
    router.post('signUp', [AuthController, 'signUp']).as('signUp')
    router.post('signIn', [AuthController, 'signIn']).as('signIn')
    router.post('signIn/totp', [AuthController, 'signInTotp']).as('signInTotp')
    router.post('signOut', [AuthController, 'signOut']).as('signOut')
    router.post('token', [AuthController, 'refresh']).as('token')
    router
      .post('resetPassword/:email', [AuthController, 'requestPasswordReset'])
      .as('requestPasswordReset')
    router.post('resetPassword', [AuthController, 'resetPassword']).as('resetPassword')

    router
      .group(() => {
        router.patch('password', [AccountSecurityController, 'changePassword']).as('password')
        router.post('totp/enable', [AccountSecurityController, 'enableTotp']).as('totp.enable')
        router.post('totp/verify', [AccountSecurityController, 'verifyTotp']).as('totp.verify')
        router.post('totp/disable', [AccountSecurityController, 'disableTotp']).as('totp.disable')
      })
      .use(middleware.auth())
  })
  .prefix('/api/auth')
  .as('auth')
