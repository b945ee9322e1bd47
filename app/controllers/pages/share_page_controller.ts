import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SharePageState from '#services/shares/share_page_state'
import { shareTokenOf } from '#controllers/shares/share_token_cookie'
import type { ShareShowPageProps } from '#api/share'

/**
 * The share view page (`/share/:id`) and its short link (`/s/:id`). The page
 * gets the share id and the state the server already knows (SharePageState:
 * not found, expired, removed, private, visitor limit, password or token
 * needed, or a valid token held); files, password and view counting go
 * through the JSON API from the browser, so nothing secret is rendered by
 * the server and reloading a page never counts a view here.
 */
@inject()
export default class SharePageController {
  constructor(private pageState: SharePageState) {}

  /** `/share/:id`: the share view. */
  async show(ctx: HttpContext) {
    const shareId = String(ctx.params.id)
    await ctx.auth.check()
    const initialState = await this.pageState.of(shareId, {
      user: ctx.auth.user ?? null,
      tokenOf: (id) => shareTokenOf(ctx, id),
    })
    return ctx.inertia.render('share/show', { shareId, initialState })
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
