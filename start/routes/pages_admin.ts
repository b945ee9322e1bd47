/*
|--------------------------------------------------------------------------
| Pages: the administration panel (Refine SPA, client-rendered)
|--------------------------------------------------------------------------
| `/admin` and every path below it answer the same HTML shell; the SPA owns
| the navigation (react-router, basename `/admin`). Who may use it is
| decided in the browser by the API (`GET /api/users/me`, admin routes):
| the refresh cookie never reaches `/admin`, so the server could not tell a
| visitor from a user whose access token just expired.
*/
import router from '@adonisjs/core/services/router'

const AdminPageController = () => import('#controllers/pages/admin_page_controller')

router.get('/admin', [AdminPageController, 'show']).as('pages.admin')
router.get('/admin/*', [AdminPageController, 'show']).as('pages.admin.spa')
