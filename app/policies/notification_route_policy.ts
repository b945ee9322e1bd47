/**
 * Who may read and replace which notification routes: the instance routes
 * only admins, his own routes every signed-in user (the routes scope them to
 * the caller). A denial answers 403.
 */
import { BasePolicy } from '@adonisjs/bouncer'
import type User from '#models/user'

/** The notification-route rules; `ctx.bouncer.with('NotificationRoutePolicy')`. */
export default class NotificationRoutePolicy extends BasePolicy {
  /** The instance routes (`/api/notifications/routes`). */
  manageInstance(user: User): boolean {
    return user.isAdmin === true
  }

  /** The caller's own routes (`/api/user/notifications`). */
  manageOwn(_user: User): boolean {
    return true
  }
}
