/**
 * Who may create and manage shares and their files. Owner
 * routes pass the share and the digest of the caller's ownership cookie
 * (`tern_share_owner`, null when none), so a visitor's browser keeps owning
 * the shares it created. Denials carry the API's statuses and messages:
 * 401 "Unauthorized" when a signed-in user's share is called without
 * signing in, else 403 "Forbidden".
 */
import { AuthorizationResponse, BasePolicy, allowGuest } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import type Share from '#models/share'
import type User from '#models/user'
import { configValue } from '#services/config/config_service'
import { ownsShare } from '#services/shares/share_owner'

/** The share rules; `ctx.bouncer.with('SharePolicy')`. */
export default class SharePolicy extends BasePolicy {
  /**
   * `POST /api/shares`: a signed-in user, the holder of a valid reverse-share
   * token, or a visitor while `share.allowUnauthenticatedShares` is on; 401 otherwise.
   */
  @allowGuest()
  async create(user: User | null, throughReverseShare: boolean): Promise<AuthorizerResponse> {
    if (user || throughReverseShare) return true
    if (await configValue('share.allowUnauthenticatedShares')) return true
    return AuthorizationResponse.deny('Unauthorized', 401)
  }

  /**
   * Owner routes (complete, reopen, edit, read from owner): the creator, an
   * admin, or the browser owning a visitor's share (`ownerTokenHash`).
   */
  @allowGuest()
  manage(user: User | null, share: Share, ownerTokenHash: string | null): AuthorizerResponse {
    if (ownsShare(share, user, ownerTokenHash)) return true
    if (!user && share.creatorId) return AuthorizationResponse.deny('Unauthorized', 401)
    return AuthorizationResponse.deny('Forbidden', 403)
  }

  /** Uploading a file to a share or removing one: the share's owner (`manage`). */
  @allowGuest()
  manageFiles(user: User | null, share: Share, ownerTokenHash: string | null): AuthorizerResponse {
    return this.manage(user, share, ownerTokenHash)
  }

  /** `DELETE /api/shares/:id`: the owner; a visitor's (anonymous) share only by an admin. */
  @allowGuest()
  delete(user: User | null, share: Share, ownerTokenHash: string | null): AuthorizerResponse {
    if (!share.creatorId && !user?.isAdmin)
      return AuthorizationResponse.deny("Anonymous shares can't be deleted", 403)
    return this.manage(user, share, ownerTokenHash)
  }
}
