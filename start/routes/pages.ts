import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

router
  .group(() => {
    router.on('/').renderInertia('home', {}).as('home')
  })
  .use(middleware.inertia())
