import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import { Exception } from '@adonisjs/core/exceptions'
import LegalPageService, { type LegalPage } from '#services/pages/legal_pages'

/**
 * The imprint (`/imprint`) and privacy policy (`/privacy`) pages: the
 * Markdown text of the `legal` settings, a redirect to the external page
 * when its URL is set, the 404 page while disabled or empty.
 */
@inject()
export default class LegalPagesController {
  constructor(protected legal: LegalPageService) {}

  async imprint(ctx: HttpContext) {
    return this.#show(ctx, 'imprint')
  }

  async privacy(ctx: HttpContext) {
    return this.#show(ctx, 'privacy')
  }

  async #show(ctx: HttpContext, page: LegalPage) {
    const outcome = await this.legal.outcome(page)
    if ('notFound' in outcome) {
      throw new Exception('This legal page is not set up', {
        status: 404,
        code: 'E_ROUTE_NOT_FOUND',
      })
    }
    if ('redirect' in outcome) {
      // An Inertia visit leaves the app for an external URL through a 409 with X-Inertia-Location.
      if (ctx.request.header('x-inertia')) return ctx.inertia.location(outcome.redirect)
      return ctx.response.redirect(outcome.redirect)
    }
    return ctx.inertia.render('legal/show', { page, text: outcome.text })
  }
}

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'legal/show': { page: LegalPage; text: string }
  }
}
