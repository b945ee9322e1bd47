import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import LogoService from '#services/branding/logo_service'

/**
 * GET /img/logo.png, /img/favicon.png, /img/favicon.ico, /favicon.ico,
 * /img/apple-touch-icon.png, /img/icons/icon-<n>x<n>.png (public): the
 * uploaded logo and its derived icons, or the built-in ones. Answered with a
 * strong ETag and `Cache-Control: no-cache`, so browsers revalidate (304) and
 * a new logo shows up at once.
 */
@inject()
export default class BrandingImagesController {
  constructor(protected logos: LogoService) {}

  /** GET /img/:name and /img/icons/:icon. */
  async show(ctx: HttpContext) {
    const { params } = ctx
    return this.#answer(ctx, params.icon ? `icons/${params.icon}` : params.name)
  }

  /** GET /favicon.ico (where browsers look when a page names no icon). */
  async favicon(ctx: HttpContext) {
    return this.#answer(ctx, 'favicon.ico')
  }

  async #answer({ request, response }: HttpContext, name: string) {
    const image = await this.logos.read(name)
    if (!image)
      return response.notFound({ statusCode: 404, message: 'Not Found', error: 'Not Found' })
    response.header('Content-Type', image.contentType)
    response.header('Cache-Control', 'no-cache')
    response.header('ETag', image.etag)
    response.header('X-Content-Type-Options', 'nosniff')
    if (matchesEtag(request.header('if-none-match'), image.etag)) return response.notModified()
    return response.send(image.bytes)
  }
}

/** True when an If-None-Match header lists `etag` (weak or strong) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((item) => {
    const tag = item.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}
