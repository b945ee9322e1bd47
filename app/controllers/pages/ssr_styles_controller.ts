/**
 * `GET /ssr-styles/:file`: the stylesheet a server-rendered page links to
 * (#services/pages/ssr_styles: antd's CSS of that render, named by its
 * SHA-256). Its content never changes under a name, so it is cacheable
 * forever; an unknown or malformed name is a 404.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { ssrStylesheet } from '#services/pages/ssr_styles'

export default class SsrStylesController {
  async show({ params, response }: HttpContext) {
    const css = await ssrStylesheet(String(params.file))
    if (css === null)
      return response.notFound({ statusCode: 404, message: 'Not Found', error: 'Not Found' })
    response.header('content-type', 'text/css; charset=utf-8')
    response.header('cache-control', 'public, max-age=31536000, immutable')
    return response.send(css)
  }
}
