import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import NotificationRoutesService from '#services/notifications/notification_routes_service'
import NotificationRoutingTransformer from '#transformers/notification_routing_transformer'
import { notificationRoutesValidator } from '#validators/notifications'

/**
 * Notification routes (Tern extension): the instance routes for admins
 * (`/api/notifications/routes`) and the caller's own routes
 * (`/api/user/notifications`). Both answer `{events, channels, routes}`.
 */
@inject()
export default class NotificationRoutesController {
  constructor(protected routes: NotificationRoutesService) {}

  /** GET /api/notifications/routes (admin): 200 every event, the channels with an instance target, the instance routes. */
  async showInstance({ bouncer, response }: HttpContext) {
    await bouncer.with('NotificationRoutePolicy').authorize('manageInstance')
    return response.ok(
      NotificationRoutingTransformer.toJSON(await this.routes.state({ kind: 'instance' }))
    )
  }

  /** PUT /api/notifications/routes (admin) `{routes}`: 200 as GET; 400 naming the first route that cannot be saved. */
  async updateInstance({ bouncer, request, response }: HttpContext) {
    await bouncer.with('NotificationRoutePolicy').authorize('manageInstance')
    const { routes } = await notificationRoutesValidator.validate(request.body())
    return response.ok(
      NotificationRoutingTransformer.toJSON(await this.routes.replace({ kind: 'instance' }, routes))
    )
  }

  /** GET /api/user/notifications: 200 the events about the caller, the channels reaching one user, his routes. */
  async showOwn({ bouncer, auth, response }: HttpContext) {
    await bouncer.with('NotificationRoutePolicy').authorize('manageOwn')
    return response.ok(
      NotificationRoutingTransformer.toJSON(
        await this.routes.state({ kind: 'user', userId: auth.getUserOrFail().id })
      )
    )
  }

  /**
   * PUT /api/user/notifications `{routes}`: 200 as GET; 400 for an unknown
   * event or channel, an admin-only event, or a channel that cannot reach a
   * user. The texts will be in the language of this request.
   */
  async updateOwn({ bouncer, auth, request, response, i18n }: HttpContext) {
    await bouncer.with('NotificationRoutePolicy').authorize('manageOwn')
    const { routes } = await notificationRoutesValidator.validate(request.body())
    const state = await this.routes.replace(
      { kind: 'user', userId: auth.getUserOrFail().id },
      routes,
      i18n?.locale
    )
    return response.ok(NotificationRoutingTransformer.toJSON(state))
  }
}
