/**
 * Who may manage a reverse share: its creator or an admin.
 * A denial is answered as 403 "Forbidden" (the controller maps it to
 * `reverseShareErrors.forbidden()`), Pingvin's answer to a non-owner.
 */
import { AuthorizationResponse, BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import type ReverseShare from '#models/reverse_share'
import type User from '#models/user'

/** The reverse-share rules; `ctx.bouncer.with('ReverseSharePolicy')`. Visitors are always denied. */
export default class ReverseSharePolicy extends BasePolicy {
  /** Deleting a reverse share (and the shares made through it): its creator or an admin. */
  manage(user: User, reverseShare: ReverseShare): AuthorizerResponse {
    if (user.isAdmin || reverseShare.creatorId === user.id) return true
    return AuthorizationResponse.deny('Forbidden', 403)
  }
}
