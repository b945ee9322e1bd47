/*
|--------------------------------------------------------------------------
| Stylesheets of server-rendered pages
|--------------------------------------------------------------------------
| /ssr-styles/<sha256>.css: antd's CSS of a server render, immutable
| (#services/pages/ssr_styles, inertia/ssr.tsx).
*/
import router from '@adonisjs/core/services/router'

const SsrStylesController = () => import('#controllers/pages/ssr_styles_controller')

router.get('/ssr-styles/:file', [SsrStylesController, 'show']).as('pages.ssrStyles')
