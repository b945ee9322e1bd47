/**
 * Who may act on a personal API token of `/api/users/me/apiTokens`: a
 * token is revoked only by the user it belongs to (listing and creating are
 * scoped to the caller by the routes themselves). Controllers answer a denial exactly like a
 * missing token (404 "API token not found"), so ids of other users' tokens
 * reveal nothing.
 */
import { BasePolicy } from '@adonisjs/bouncer'
import type ApiToken from '#models/api_token'
import type User from '#models/user'

/** The API-token rules; `ctx.bouncer.with('ApiTokenPolicy')`. */
export default class ApiTokenPolicy extends BasePolicy {
  /** Revoking `token`: only its owner. */
  delete(user: User, token: ApiToken): boolean {
    return token.userId === user.id
  }
}
