import { Exception } from '@adonisjs/core/exceptions'

/**
 * 400 for a route that cannot be saved: an unknown event or channel, a
 * channel that cannot deliver the event or reach that kind of target, or an
 * event a user may not route to himself. The message names the route.
 */
export class InvalidNotificationRouteException extends Exception {
  static status = 400
  static code = 'E_INVALID_NOTIFICATION_ROUTE'
}
