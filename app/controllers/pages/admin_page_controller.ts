import type { HttpContext } from '@adonisjs/core/http'
import { adminShellData } from '#services/pages/admin_shell'

/** The administration panel's HTML shell (`/admin`, `/admin/*`). */
export default class AdminPageController {
  /**
   * Renders `resources/views/admin.edge` with the boot data of the SPA. The
   * same shell for everyone: the SPA asks the API who is signed in and shows
   * the sign-in redirect or the 403 page itself.
   */
  async show(ctx: HttpContext) {
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.view.render('admin', await adminShellData(ctx))
  }
}
