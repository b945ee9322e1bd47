import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import LogoService from '#services/branding/logo_service'
import { readLogoUpload } from '#controllers/configs/logo_upload'

/** The instance logo (admin, `POST /api/configs/admin/logo`). */
@inject()
export default class LogoController {
  constructor(protected logos: LogoService) {}

  /**
   * POST /api/configs/admin/logo, multipart field `file`: a square PNG (at
   * most 5 MB and 4096x4096). 201 once the logo, favicon and app icons are
   * stored. 400 "The logo file is required" / "The logo must be a PNG image" /
   * "The logo must be square (1:1)" / "The logo must be at most 4096x4096
   * pixels"; 413 "The logo file must be at most 5 MB".
   */
  async store({ request, response }: HttpContext) {
    await this.logos.save(await readLogoUpload(request))
    return response.created()
  }

  /** DELETE /api/configs/admin/logo (ext): back to the built-in logo and icons; 204. */
  async destroy({ response }: HttpContext) {
    await this.logos.remove()
    return response.noContent()
  }
}
