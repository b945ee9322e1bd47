/**
 * Routes the events of the catalogue (#extensions/notifications/events) to
 * channels: `emit` looks up the instance routes of the event and the routes
 * of the user it concerns (the owner of a share or reverse share, or the
 * user himself for account events), renders the texts (the user's language
 * for his routes, the default language for instance routes) and stores one
 * durable outbox row per channel and target, in the caller's transaction
 * when given. The outbox worker then calls the channel's `deliver`, with
 * retries. `emit` never waits for a channel and never throws: a problem is
 * logged, the request goes on.
 *
 * ```ts
 * await router.emit('share.completed', { share }, { client: trx })
 * ```
 */
import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import {
  isUserRoutable,
  notificationEventUserId,
  notifications,
  type NotificationEventId,
  type NotificationEventPayloads,
  type NotificationManager,
  type NotificationMessage,
} from '#extensions/notifications/main'
import OutboxService from '#services/outbox/outbox_service'
import { renderNotification } from '#services/notifications/render_notification'
import { DEFAULT_LOCALE } from '#start/locales'

/** The outbox target of an instance route. */
export const INSTANCE_TARGET = ''

/** The outbox target of user `userId`'s route. */
export function userTarget(userId: string): string {
  return `user:${userId}`
}

/** What an outbox row of a routed event holds. */
export interface RoutedPayload {
  message: NotificationMessage
}

/** True when an outbox payload is a routed event (not a mail the core addressed itself). */
export function isRoutedPayload(payload: unknown): payload is RoutedPayload {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as RoutedPayload).message?.event === 'string'
  )
}

/** Options of `emit`. */
export interface EmitOptions {
  /** The transaction of the change that caused the event: the rows are stored with it. */
  client?: TransactionClientContract | QueryClientContract
  /** The user whose routes apply (default: the owner or subject the payload names). */
  userId?: number | string | null
  /** The event's id (default a new UUID): emitting the same id twice stores nothing new. */
  eventId?: string
  /** When it happened (default now). */
  occurredAt?: Date
}

/** True for a transaction client (it can open a savepoint). */
function isTransaction(
  client: NonNullable<EmitOptions['client']>
): client is TransactionClientContract {
  return (client as TransactionClientContract).isTransaction === true
}

/** One delivery `emit` decided on. */
interface PlannedDelivery {
  channel: string
  target: string
  message: NotificationMessage
}

/** See the module comment. */
@inject()
export default class NotificationRouter {
  /** The channel registry (tests may pass their own). */
  channels: NotificationManager = notifications

  constructor(protected outbox: OutboxService) {}

  /** See the module comment. Resolves once the rows are stored (or the problem logged). */
  async emit<E extends NotificationEventId>(
    event: E,
    payload: NotificationEventPayloads[E],
    options: EmitOptions = {}
  ): Promise<void> {
    const outer = options.client
    const store = async (client: EmitOptions['client']) => {
      const planned = await this.plan(event, payload, { ...options, client })
      for (const delivery of planned) {
        await this.outbox.enqueue({
          eventId: delivery.message.eventId,
          eventType: event,
          channel: delivery.channel,
          target: delivery.target,
          payload: { message: delivery.message } satisfies RoutedPayload,
          client,
        })
      }
    }
    try {
      if (outer && isTransaction(outer)) {
        // A savepoint: a failure here is rolled back alone, and the caller's transaction can
        // still commit (PostgreSQL refuses every statement of a transaction after an error).
        const savepoint: TransactionClientContract = await outer.transaction()
        try {
          await store(savepoint)
          await savepoint.commit()
        } catch (error) {
          await savepoint.rollback().catch(() => {})
          throw error
        }
        outer.after('commit', () => this.outbox.worker.kick())
      } else {
        await store(outer)
      }
    } catch (error) {
      logger.error(
        { event, err: error },
        `Notification "${event}" not routed: ${(error as Error)?.message ?? error}`
      )
    }
  }

  /**
   * The deliveries of one event: one per (channel, target), only through
   * channels that are registered, can be routed, accept the event and reach
   * that kind of target.
   */
  async plan<E extends NotificationEventId>(
    event: E,
    payload: NotificationEventPayloads[E],
    options: EmitOptions = {}
  ): Promise<PlannedDelivery[]> {
    const client = options.client ?? db.connection()
    const base = {
      event,
      payload,
      occurredAt: (options.occurredAt ?? new Date()).toISOString(),
      eventId: options.eventId ?? randomUUID(),
    }
    const ownerId =
      options.userId === undefined ? notificationEventUserId(event, payload) : options.userId
    const routes = await client
      .from('notification_routes')
      .where('event', event)
      .where((query) => {
        query.whereNull('user_id')
        if (ownerId !== null && ownerId !== undefined && isUserRoutable(event))
          query.orWhere('user_id', String(ownerId))
      })
      .select('user_id', 'channel', 'locale')
      .orderBy('id', 'asc')

    const planned: PlannedDelivery[] = []
    const seen = new Set<string>()
    let instanceRendered: NotificationMessage['rendered'] | undefined
    let recipient: { id: string; email: string } | null | undefined
    for (const route of routes as {
      user_id: string | null
      channel: string
      locale: string | null
    }[]) {
      const kind = route.user_id === null ? 'instance' : 'user'
      const info = this.#channelInfo(route.channel)
      if (!info || !info.events.includes(event) || !info.targets[kind]) {
        logger.warn(
          { event, channel: route.channel, kind },
          `Notification route to "${route.channel}" skipped: the channel cannot deliver it`
        )
        continue
      }
      const target = kind === 'instance' ? INSTANCE_TARGET : userTarget(route.user_id!)
      const key = `${route.channel}\u0000${target}`
      if (seen.has(key)) continue
      seen.add(key)
      if (kind === 'instance') {
        instanceRendered ??= renderNotification(event, payload, DEFAULT_LOCALE)
        planned.push({
          channel: route.channel,
          target,
          message: { ...base, rendered: instanceRendered },
        })
        continue
      }
      if (recipient === undefined) {
        recipient =
          (await client.from('users').where('id', route.user_id!).select('id', 'email').first()) ??
          null
      }
      if (!recipient) continue
      const locale = route.locale ?? DEFAULT_LOCALE
      planned.push({
        channel: route.channel,
        target,
        message: {
          ...base,
          recipient: { userId: recipient.id, email: recipient.email, locale },
          rendered: renderNotification(event, payload, locale),
        },
      })
    }
    return planned
  }

  #channelInfo(name: string) {
    if (!this.channels.has(name)) return null
    try {
      return this.channels.describe(name)
    } catch (error) {
      logger.warn(
        { channel: name, err: error },
        `Notification channel "${name}" could not be built`
      )
      return null
    }
  }
}
