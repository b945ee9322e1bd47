import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import AdminShellService from '#services/pages/admin_shell'
import { colorSchemeOf, pageLanguage } from '#http/page_request'

/** The administration panel's HTML shell (`/admin`, `/admin/*`). */
@inject()
export default class AdminPageController {
  constructor(protected shell: AdminShellService) {}

  /**
   * Renders `resources/views/admin.edge` with the boot data of the SPA. The
   * same shell for everyone: the SPA asks the API who is signed in and shows
   * the sign-in redirect or the 403 page itself.
   */
  async show(ctx: HttpContext) {
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.view.render(
      'admin',
      await this.shell.shellData(pageLanguage(ctx), colorSchemeOf(ctx))
    )
  }
}
