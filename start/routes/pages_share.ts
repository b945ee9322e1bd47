/*
|--------------------------------------------------------------------------
| Pages of one share (Inertia, server-rendered)
|--------------------------------------------------------------------------
| /share/:id (share view), /s/:id (short link, 302 to the view).
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SharePageController = () => import('#controllers/pages/share_page_controller')

router
  .group(() => {
    router.get('/share/:id', [SharePageController, 'show']).as('pages.share.show')
    router.get('/s/:id', [SharePageController, 'short']).as('pages.share.short')
  })
  .use(middleware.inertia())
