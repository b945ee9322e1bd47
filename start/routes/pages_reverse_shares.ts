/*
|--------------------------------------------------------------------------
| Pages of reverse shares (Inertia, server-rendered)
|--------------------------------------------------------------------------
| /account/reverseShares (the owner's list) and /upload/:token (the upload
| page of a reverse share, for people without an account). `/upload/:token`
| does not overlap `/upload` (pages_upload.ts).
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ReverseSharesPageController = () =>
  import('#controllers/pages/reverse_shares_page_controller')

router
  .group(() => {
    router
      .get('/account/reverseShares', [ReverseSharesPageController, 'index'])
      .as('pages.account.reverseShares')
    router
      .get('/upload/:token', [ReverseSharesPageController, 'upload'])
      .as('pages.upload.reverseShare')
  })
  .use(middleware.inertia())
