import type { HttpContext } from '@adonisjs/core/http'
import Share from '#models/share'
import { VISIBILITY_COLUMNS, visibilityOf } from '#services/shares/share_queries'
import type { ShareShowPageProps, ShareViewInitialState } from '#api/share'

/**
 * The state a visitor may see without a token, by the rule (visibilityOf)
 * that `GET /api/shares/:id` applies first through ShareQueries.findVisible
 * (404 when missing, expired or not completed; `share_removed` with the
 * admin's reason). Only the columns that rule reads are loaded: the whole
 * share model (a dozen columns, four dates through luxon) was a large part of
 * a cached page's cost (issue 15).
 */
async function initialStateOf(shareId: string): Promise<ShareViewInitialState> {
  const share = await Share.query().select(...VISIBILITY_COLUMNS).where('id', shareId).first()
  const visibility = visibilityOf(share)
  return visibility.kind === 'visible' ? null : visibility
}

/**
 * The share view page (`/share/:id`) and its short link (`/s/:id`). The page
 * gets the share id (and the token-free state); files, password and view
 * counting go through the JSON API from the browser, so nothing secret is
 * rendered by the server and reloading a page never counts a view here.
 */
export default class SharePageController {
  /** `/share/:id`: the share view. */
  async show(ctx: HttpContext) {
    const shareId = String(ctx.params.id)
    return ctx.inertia.render('share/show', { shareId, initialState: await initialStateOf(shareId) })
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
