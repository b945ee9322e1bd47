/*
|--------------------------------------------------------------------------
| Pages (Inertia, server-rendered)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const HomeController = () => import('#controllers/pages/home_controller')

router
  .group(() => {
    router.get('/', [HomeController, 'show']).as('home')
  })
  .use(middleware.inertia())
