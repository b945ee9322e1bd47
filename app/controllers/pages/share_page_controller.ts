import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ShareApiException } from '#services/shares/share_errors'
import ShareQueries from '#services/shares/share_queries'
import type { ShareShowPageProps, ShareViewInitialState } from '#api/share'

/**
 * The state a visitor may see without a token, from the same lookup as the
 * API (`GET /api/shares/:id` answers 404 / `share_removed` for these first).
 */
async function initialStateOf(queries: ShareQueries, shareId: string): Promise<ShareViewInitialState> {
  try {
    await queries.findVisible(shareId)
    return null
  } catch (error) {
    if (!(error instanceof ShareApiException)) throw error
    if (error.errorKey === 'share_removed') return { kind: 'removed', reason: error.message }
    return { kind: 'notFound' }
  }
}

/**
 * The share view page (`/share/:id`) and its short link (`/s/:id`). The page
 * gets the share id (and the token-free state); files, password and view
 * counting go through the JSON API from the browser, so nothing secret is
 * rendered by the server and reloading a page never counts a view here.
 */
@inject()
export default class SharePageController {
  constructor(private queries: ShareQueries) {}

  /** `/share/:id`: the share view. */
  async show(ctx: HttpContext) {
    const shareId = String(ctx.params.id)
    return ctx.inertia.render('share/show', { shareId, initialState: await initialStateOf(this.queries, shareId) })
  }

  /** `/s/:id`: 302 to `/share/:id`. */
  async short({ params, response }: HttpContext) {
    return response.redirect(`/share/${encodeURIComponent(String(params.id))}`)
  }
}

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'share/show': ShareShowPageProps
  }
}
