/**
 * Helpers of the emission tests (emission_*.spec.ts): routes are saved
 * through the real API (a user's own in My account, the instance's by an
 * admin) to the `recording` channel of the test plugin
 * tests/fixtures/plugins/recording-channel, and what that channel was given
 * is read once the outbox has delivered everything.
 *
 * ```ts
 * const owner = await shareUser()
 * await routeOwn(owner.cookie, ['share.created'])
 * ... act over HTTP ...
 * const [message] = await delivered('share.created')
 * ```
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { NotificationEventId, NotificationMessage } from '#extensions/notifications/main'
import OutboxService from '#services/outbox/outbox_service'
import { RECORDING_CHANNEL, recorded } from '#tests/fixtures/plugins/recording-channel/src/state'
import { resetOutbox } from '#tests/helpers/outbox'
import { api } from '#tests/helpers/shares'

const outbox = await app.container.make(OutboxService)

/** Saves the caller's own routes: each of `events` to the recording channel (PUT /api/user/notifications). */
export async function routeOwn(cookie: string, events: NotificationEventId[]): Promise<void> {
  const routes = events.map((event) => ({ event, channel: RECORDING_CHANNEL }))
  const response = await api('PUT', '/api/user/notifications', { cookie, json: { routes } })
  if (response.status !== 200) throw new Error(`user routes: ${response.status} ${response.bytes}`)
}

/** Saves the instance routes (an admin's cookie): each of `events` to the recording channel. */
export async function routeInstance(
  adminCookie: string,
  events: NotificationEventId[]
): Promise<void> {
  const routes = events.map((event) => ({ event, channel: RECORDING_CHANNEL }))
  const response = await api('PUT', '/api/notifications/routes', {
    cookie: adminCookie,
    json: { routes },
  })
  if (response.status !== 200)
    throw new Error(`instance routes: ${response.status} ${response.bytes}`)
}

/** A recorded message of any event (its payload read as the test expects). */
export type RecordedMessage = Omit<NotificationMessage, 'payload'> & { payload: any }

/**
 * Every message the recording channel delivered (of `event` when given),
 * once nothing is pending in the outbox: work queued by a request (a
 * password-reset request) first, then the recording channel's rows.
 */
export async function delivered<E extends NotificationEventId>(
  event: E
): Promise<NotificationMessage<E>[]>
export async function delivered(): Promise<RecordedMessage[]>
export async function delivered(event?: NotificationEventId): Promise<NotificationMessage[]> {
  await outbox.idle()
  await outbox.idle(RECORDING_CHANNEL)
  return recorded.filter((message) => event === undefined || message.event === event)
}

/** Forgets recorded messages and empties the routes and the outbox (each test's teardown). */
export async function resetRecording(): Promise<void> {
  await outbox.idle().catch(() => {})
  recorded.length = 0
  await db.from('notification_routes').delete()
  await resetOutbox()
}
