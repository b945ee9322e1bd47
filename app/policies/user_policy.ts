/**
 * Who may manage accounts: admins manage every account
 * (`/api/users`, which alone can set the admin flag); every signed-in user
 * changes or deletes their own account (`/api/users/me`). Rules that hold whoever
 * asks (the last admin stays, unique names) are UserService's, not the policy's.
 * Controllers answer a denial with the API's 403 "Forbidden".
 */
import { BasePolicy } from '@adonisjs/bouncer'
import type User from '#models/user'

/** The account rules; `ctx.bouncer.with('UserPolicy')`. */
export default class UserPolicy extends BasePolicy {
  /** Listing, creating, and changing or deleting any account: admins only. */
  manage(actor: User): boolean {
    return Boolean(actor.isAdmin)
  }

  /** Changing `target`'s name, e-mail or password: an admin, or the user themselves. */
  update(actor: User, target: User): boolean {
    return this.manage(actor) || actor.id === target.id
  }

  /** Deleting `target`: an admin, or the user themselves. */
  delete(actor: User, target: User): boolean {
    return this.manage(actor) || actor.id === target.id
  }
}
