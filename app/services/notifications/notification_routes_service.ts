/**
 * Reads and replaces notification routes: the instance routes (admins) and
 * each user's own routes (My account). A route names an event of the
 * catalogue and a routable channel that can deliver it to that kind of
 * target; anything else is refused with `InvalidNotificationRouteException`
 * (400) before anything changes. Replacing is one transaction.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import {
  NOTIFICATION_EVENT_AUDIENCE,
  NOTIFICATION_EVENTS,
  isNotificationEvent,
  isUserRoutable,
  notifications,
  type NotificationChannelInfo,
  type NotificationEventId,
  type NotificationManager,
} from '#extensions/notifications/main'
import NotificationRoute from '#models/notification_route'
import { InvalidNotificationRouteException } from '#services/notifications/notification_route_errors'
import { notificationLocale } from '#services/notifications/render_notification'

/** A route as the API speaks it. */
export interface RouteInput {
  event: string
  channel: string
}

/** The routing options and the saved routes of one scope (instance or a user). */
export interface RoutingState {
  events: {
    id: NotificationEventId
    audience: (typeof NOTIFICATION_EVENT_AUDIENCE)[NotificationEventId]
  }[]
  channels: NotificationChannelInfo[]
  routes: { event: NotificationEventId; channel: string }[]
}

/** Whose routes: the instance's, or one user's. */
export type RouteScope = { kind: 'instance' } | { kind: 'user'; userId: string }

/** See the module comment. */
@inject()
export default class NotificationRoutesService {
  /** The channel registry (tests may pass their own). */
  channels: NotificationManager = notifications

  /**
   * The events and channels `scope` may route (users: the events about them
   * and the channels reaching one user that can deliver now, see
   * `NotificationChannelContract.available`), and its saved routes to those
   * channels. A route to a channel not offered now (its plugin disabled, or
   * e-mail while SMTP is off) is kept in the table and not listed; it comes
   * back with the channel.
   */
  async state(scope: RouteScope): Promise<RoutingState> {
    const kind = scope.kind
    const events = NOTIFICATION_EVENTS.filter(
      (event) => kind === 'instance' || isUserRoutable(event)
    )
    const channels = await this.#offered(kind, events)
    const query = NotificationRoute.query().orderBy('id', 'asc')
    if (scope.kind === 'instance') query.whereNull('userId')
    else query.where('userId', scope.userId)
    const rows = await query
    return {
      events: events.map((id) => ({ id, audience: NOTIFICATION_EVENT_AUDIENCE[id] })),
      channels,
      routes: rows
        .filter((row) =>
          channels.some(
            (channel) => channel.name === row.channel && channel.events.includes(row.event)
          )
        )
        .map((row) => ({ event: row.event, channel: row.channel })),
    }
  }

  /** The channels `kind` is offered, each with the events of `events` it can deliver. */
  async #offered(
    kind: 'instance' | 'user',
    events: readonly NotificationEventId[]
  ): Promise<NotificationChannelInfo[]> {
    const offered: NotificationChannelInfo[] = []
    for (const channel of this.channels.routable()) {
      if (!channel.targets[kind]) continue
      if (kind === 'user' && !(await this.channels.available(channel.name))) continue
      offered.push({ ...channel, events: channel.events.filter((event) => events.includes(event)) })
    }
    return offered
  }

  /**
   * Replaces the routes of `scope` to the channels it is offered now (see
   * `state`) by `routes` (duplicates kept once); routes to other channels
   * stay as they are. User routes remember `locale` for their texts. Throws
   * `InvalidNotificationRouteException` for the first route that cannot be
   * saved, changing nothing.
   */
  async replace(
    scope: RouteScope,
    routes: readonly RouteInput[],
    locale?: string | null
  ): Promise<RoutingState> {
    const kind = scope.kind
    const unique = new Map<string, { event: NotificationEventId; channel: string }>()
    for (const route of routes) {
      const valid = this.#check(kind, route)
      unique.set(`${valid.event}\u0000${valid.channel}`, valid)
    }
    const offeredChannels = await this.#offered(kind, NOTIFICATION_EVENTS)
    const offered = offeredChannels.map((channel) => channel.name)
    for (const route of unique.values()) {
      if (!offered.includes(route.channel)) {
        throw new InvalidNotificationRouteException(
          `The channel "${route.channel}" is switched off`
        )
      }
    }
    const userId = scope.kind === 'user' ? scope.userId : null
    await db.transaction(async (trx) => {
      const existing = NotificationRoute.query({ client: trx }).whereIn('channel', offered)
      if (userId === null) existing.whereNull('userId')
      else existing.where('userId', userId)
      await existing.delete()
      for (const route of unique.values()) {
        await NotificationRoute.create(
          {
            userId,
            event: route.event,
            channel: route.channel,
            locale: userId === null ? null : notificationLocale(locale),
          },
          { client: trx }
        )
      }
    })
    return this.state(scope)
  }

  /** The route, checked (see `replace`). */
  #check(
    kind: 'instance' | 'user',
    route: RouteInput
  ): { event: NotificationEventId; channel: string } {
    const event = String(route.event)
    const channel = String(route.channel)
    if (!isNotificationEvent(event)) {
      throw new InvalidNotificationRouteException(
        `Unknown notification event "${event.slice(0, 64)}"`
      )
    }
    if (kind === 'user' && !isUserRoutable(event)) {
      throw new InvalidNotificationRouteException(
        `The event "${event}" can only be routed by an administrator`
      )
    }
    const info = this.channels.has(channel) ? this.channels.describe(channel) : null
    if (!info) {
      throw new InvalidNotificationRouteException(
        `Unknown notification channel "${channel.slice(0, 64)}"`
      )
    }
    if (!info.targets[kind]) {
      throw new InvalidNotificationRouteException(
        kind === 'user'
          ? `The channel "${channel}" cannot notify a single user`
          : `The channel "${channel}" has no instance-wide destination`
      )
    }
    if (!info.events.includes(event)) {
      throw new InvalidNotificationRouteException(
        `The channel "${channel}" cannot deliver the event "${event}"`
      )
    }
    return { event, channel }
  }
}
