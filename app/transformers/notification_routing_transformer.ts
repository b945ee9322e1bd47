/**
 * Shapes the routing options and saved routes of a scope for
 * `/api/notifications/routes` (admin) and `/api/user/notifications`.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type { RoutingState } from '#services/notifications/notification_routes_service'
import type { NotificationRouting } from '#api/notifications'

export type { NotificationRouting }

/** Turns a `RoutingState` into the API's `NotificationRouting`. */
export default class NotificationRoutingTransformer extends BaseTransformer<RoutingState> {
  /** The routing object. */
  toObject(): NotificationRouting {
    const state = this.resource
    return {
      events: state.events.map((event) => ({ id: event.id, audience: event.audience })),
      channels: state.channels.map((channel) => ({
        name: channel.name,
        events: [...channel.events],
        targets: { user: channel.targets.user, instance: channel.targets.instance },
      })),
      routes: state.routes.map((route) => ({ event: route.event, channel: route.channel })),
    }
  }

  /** Plain object for a response body. */
  static toJSON(state: RoutingState): NotificationRouting {
    return new NotificationRoutingTransformer(state).toObject()
  }
}
