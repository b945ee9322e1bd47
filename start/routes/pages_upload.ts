/*
|--------------------------------------------------------------------------
| Upload page (Inertia, server-rendered)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const UploadPageController = () => import('#controllers/pages/upload_page_controller')

router
  .group(() => {
    router.get('/upload', [UploadPageController, 'show']).as('pages.upload')
  })
  .use(middleware.inertia())
