/**
 * What a visitor needs to see a share or download from it: a valid share
 * token cookie, or, for downloads, a direct link (a share without password
 * whose view limit is not reached; each direct download counts one view).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type Share from '#models/share'
import ShareSecurity from '#models/share_security'
import { currentUser } from '#services/auth/current_user'
import { shareErrors } from '#services/shares/share_errors'
import { shareSeams } from '#services/shares/share_seams'
import { countView, hasValidShareToken } from '#services/shares/share_token_service'

/**
 * 403 `private_share` when the caller may not see `share` (a share of a
 * reverse share with public access off, see `shareSeams.isPrivateFor`).
 */
export async function assertNotPrivate(ctx: HttpContext, share: Share): Promise<void> {
  if (await shareSeams.isPrivateFor(share, await currentUser(ctx))) throw shareErrors.privateShare()
}

/**
 * Routes behind "share token" (`GET /api/shares/:id`, `metaData`): 403
 * `share_password_required` for a password share without a valid token,
 * `share_token_required` otherwise, `private_share` for private reverse shares.
 */
export async function assertShareToken(ctx: HttpContext, share: Share): Promise<void> {
  if (!(await hasValidShareToken(ctx, share))) {
    const security = await ShareSecurity.findBy('shareId', share.id)
    throw security?.password ? shareErrors.passwordRequired() : shareErrors.tokenRequired()
  }
  await assertNotPrivate(ctx, share)
}

/** A download allowed through a direct link (no token cookie): it still has to count its view. */
export interface DirectLinkPass {
  maxViews: number | null
}

/**
 * Downloads (a file or the zip): a valid token cookie (resolves to null), or
 * a direct link (resolves to a pass whose view `countDirectView` counts). A
 * direct link to a password share is 403 `share_password_required`; one over
 * the view limit 403 `share_max_views_exceeded`.
 */
export async function downloadAccess(ctx: HttpContext, share: Share): Promise<DirectLinkPass | null> {
  await assertNotPrivate(ctx, share)
  if (await hasValidShareToken(ctx, share)) return null
  const security = await ShareSecurity.findBy('shareId', share.id)
  if (security?.password) throw shareErrors.passwordRequired()
  const maxViews = security?.maxViews ?? null
  if (maxViews !== null && share.views >= maxViews) throw shareErrors.maxViewsExceeded()
  return { maxViews }
}

/** Counts the view of a direct-link download atomically; 403 `share_max_views_exceeded` when none is left. */
export async function countDirectView(share: Share, pass: DirectLinkPass): Promise<void> {
  if (!(await countView(share, pass.maxViews))) throw shareErrors.maxViewsExceeded()
}
