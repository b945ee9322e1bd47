/*
|--------------------------------------------------------------------------
| Pages: my shares and the share edit page (Inertia, server-rendered)
|--------------------------------------------------------------------------
| `/share/:id/edit` lives here rather than in pages_share.ts: its path does
| not overlap the share view's `/share/:id`, so the order of the files does
| not matter.
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const MySharesPageController = () => import('#controllers/pages/my_shares_page_controller')

router
  .group(() => {
    router.get('/account/shares', [MySharesPageController, 'index']).as('pages.account.shares')
    router.get('/share/:id/edit', [MySharesPageController, 'edit']).as('pages.share.edit')
  })
  .use(middleware.inertia())
