/**
 * What a visitor needs to see a share or download from it: a valid share
 * token (the controllers read it from the `share_<id>_token` cookie), or,
 * for downloads, a direct link (a share without password whose view limit
 * is not reached; each direct download counts one view).
 */
import { inject } from '@adonisjs/core'
import { hooks } from '#extensions/hooks/main'
import type Share from '#models/share'
import ShareSecurity from '#models/share_security'
import type User from '#models/user'
import { shareErrors } from '#services/shares/share_errors'
import ShareTokenService from '#services/shares/share_token_service'

/** A download allowed through a direct link (no token cookie): it still has to count its view. */
export interface DirectLinkPass {
  maxViews: number | null
}

/** The visitor-side checks of the share routes. */
@inject()
export default class ShareVisitorAccess {
  constructor(private tokens: ShareTokenService) {}

  /**
   * 403 `private_share` when `user` (null for a visitor) may not see `share`
   * (the `share:before_access` hook marks it private: a share of a reverse
   * share with public access off).
   */
  async assertNotPrivate(share: Share, user: User | null): Promise<void> {
    const access = await hooks.filter('share:before_access', {
      shareId: share.id,
      creatorId: share.creatorId,
      reverseShareId: share.reverseShareId,
      userId: user?.id ?? null,
      private: false,
    })
    if (access.private) throw shareErrors.privateShare()
  }

  /**
   * Routes behind "share token" (`GET /api/shares/:id`, `metaData`): 403
   * `share_password_required` for a password share without a valid `token`,
   * `share_token_required` otherwise, `private_share` for private reverse shares.
   */
  async assertShareToken(share: Share, token: unknown, user: User | null): Promise<void> {
    if (!(await this.tokens.verify(share, token))) {
      const security = await ShareSecurity.findBy('shareId', share.id)
      throw security?.password ? shareErrors.passwordRequired() : shareErrors.tokenRequired()
    }
    await this.assertNotPrivate(share, user)
  }

  /**
   * Downloads (a file or the zip): a valid `token` (resolves to null), or a
   * direct link (resolves to a pass whose view `countDirectView` counts). A
   * direct link to a password share is 403 `share_password_required`; one
   * over the view limit 403 `share_max_views_exceeded`.
   */
  async downloadAccess(
    share: Share,
    token: unknown,
    user: User | null
  ): Promise<DirectLinkPass | null> {
    await this.assertNotPrivate(share, user)
    if (await this.tokens.verify(share, token)) return null
    const security = await ShareSecurity.findBy('shareId', share.id)
    if (security?.password) throw shareErrors.passwordRequired()
    const maxViews = security?.maxViews ?? null
    if (maxViews !== null && share.views >= maxViews) throw shareErrors.maxViewsExceeded()
    return { maxViews }
  }

  /** Counts the view of a direct-link download atomically; 403 `share_max_views_exceeded` when none is left. */
  async countDirectView(share: Share, pass: DirectLinkPass): Promise<void> {
    if (!(await this.tokens.countView(share, pass.maxViews))) throw shareErrors.maxViewsExceeded()
  }
}
