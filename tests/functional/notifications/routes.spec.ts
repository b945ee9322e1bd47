/**
 * Notification routing through the real API and the real outbox: admins
 * save instance routes, users their own; invalid routes are refused with
 * 400; a user cannot reach the admin routes; an emitted event reaches a
 * channel only through a route (one outbox row per channel and target,
 * texts in the recipient's language); a failing channel is retried by the
 * outbox; a slow channel never delays the request that emitted.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import NotificationRouter from '#services/notifications/notification_router'
import OutboxService from '#services/outbox/outbox_service'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { DELIVERIES_TABLE, resetOutbox, until } from '#tests/helpers/outbox'
import {
  api,
  cleanupShareTests,
  createShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { samplePayload } from '#tests/contracts/notification_channel_contract'
import { registerTestChannel, type TestChannel } from './test_channels.js'

const outbox = await app.container.make(OutboxService)
const notificationRouter = await app.container.make(NotificationRouter)

const ROUTES = '/api/notifications/routes'
const MINE = '/api/user/notifications'

/** A share payload owned by `userId`. */
function shareOf(userId: string) {
  const { share } = samplePayload('share.created')
  return { share: { ...share, id: `routed-${userId.slice(0, 8)}`, creatorId: userId } }
}

test.group('Notifications | routes', (group) => {
  group.teardown(cleanCommittedData)
  const channels: TestChannel[] = []
  const channel = async (...args: Parameters<typeof registerTestChannel>) => {
    const registered = await registerTestChannel(...args)
    channels.push(registered)
    return registered
  }

  group.each.teardown(async () => {
    for (const registered of channels.splice(0)) await registered.remove()
    await db.from('notification_routes').delete()
    await resetOutbox()
    await cleanupShareTests()
  })

  test('admins read every event and the channels with an instance target, and replace the instance routes', async ({
    assert,
  }) => {
    const ops = await channel('ops', {
      targets: { user: false, instance: true },
      events: ['share.created', 'user.invited'],
    })
    await channel('pager', { targets: { user: true, instance: false } })
    const admin = await shareUser({ admin: true })

    const empty = await api('GET', ROUTES, { cookie: admin.cookie })
    assert.equal(empty.status, 200)
    assert.lengthOf(empty.json.events, 11)
    assert.deepInclude(empty.json.events, { id: 'user.invited', audience: 'instance' })
    assert.deepInclude(empty.json.events, { id: 'share.downloaded', audience: 'owner' })
    assert.deepInclude(empty.json.channels, {
      name: 'ops',
      events: ['share.created', 'user.invited'],
      targets: { user: false, instance: true },
    })
    const names = empty.json.channels.map((c: { name: string }) => c.name)
    assert.include(names, 'email')
    assert.notInclude(names, 'pager')
    assert.deepEqual(empty.json.routes, [])

    const routes = [
      { event: 'user.invited', channel: 'ops' },
      { event: 'share.created', channel: 'email' },
      { event: 'user.invited', channel: 'ops' },
    ]
    const saved = await api('PUT', ROUTES, { cookie: admin.cookie, json: { routes } })
    assert.equal(saved.status, 200)
    assert.deepEqual(saved.json.routes, routes.slice(0, 2))
    assert.deepEqual(
      (await api('GET', ROUTES, { cookie: admin.cookie })).json.routes,
      routes.slice(0, 2)
    )
    const rows = await db.from('notification_routes').select('user_id')
    assert.lengthOf(rows, 2)
    assert.isTrue(rows.every((row) => row.user_id === null))

    // A channel that goes away (plugin disabled) takes its routes out of the list; they come back with it.
    await api('PUT', ROUTES, {
      cookie: admin.cookie,
      json: { routes: [{ event: 'user.invited', channel: 'ops' }] },
    })
    await ops.remove()
    assert.deepEqual((await api('GET', ROUTES, { cookie: admin.cookie })).json.routes, [])
    await channel('ops', {
      targets: { user: false, instance: true },
      events: ['share.created', 'user.invited'],
    })
    assert.deepEqual((await api('GET', ROUTES, { cookie: admin.cookie })).json.routes, [
      { event: 'user.invited', channel: 'ops' },
    ])

    const cleared = await api('PUT', ROUTES, { cookie: admin.cookie, json: { routes: [] } })
    assert.deepEqual(cleared.json.routes, [])
  })

  test('invalid routes are refused with 400 and a message, changing nothing', async ({
    assert,
  }) => {
    await channel('ops', { targets: { user: false, instance: true }, events: ['share.created'] })
    await channel('pager', { targets: { user: true, instance: false } })
    const admin = await shareUser({ admin: true })
    const kept = [{ event: 'share.created', channel: 'ops' }]
    assert.equal(
      (await api('PUT', ROUTES, { cookie: admin.cookie, json: { routes: kept } })).status,
      200
    )

    const refused: [unknown, RegExp][] = [
      [
        { routes: [{ event: 'share.exploded', channel: 'ops' }] },
        /Unknown notification event "share.exploded"/,
      ],
      [
        { routes: [{ event: 'share.created', channel: 'carrier-pigeon' }] },
        /Unknown notification channel "carrier-pigeon"/,
      ],
      [
        { routes: [{ event: 'share.downloaded', channel: 'ops' }] },
        /channel "ops" cannot deliver the event "share.downloaded"/,
      ],
      [
        { routes: [{ event: 'share.created', channel: 'pager' }] },
        /channel "pager" has no instance-wide destination/,
      ],
      [{ routes: 'share.created' }, /routes must be an array/],
      [{}, /routes is required/],
      [{ routes: [{ event: 'share.created' }] }, /channel is required/],
    ]
    for (const [body, message] of refused) {
      const response = await api('PUT', ROUTES, { cookie: admin.cookie, json: body })
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.json.statusCode, 400)
      assert.match([response.json.message].flat().join(' | '), message)
    }
    assert.deepEqual((await api('GET', ROUTES, { cookie: admin.cookie })).json.routes, kept)
  })

  test('a user cannot see or set the admin routes; his own are his, in his language', async ({
    assert,
  }) => {
    await setConfig('smtp.enabled', 'true')
    await channel('ops', { targets: { user: false, instance: true } })
    await channel('pager', {
      targets: { user: true, instance: false },
      events: ['share.downloaded', 'user.invited'],
    })
    const admin = await shareUser({ admin: true })
    const owner = await shareUser()
    const instanceRoutes = [{ event: 'share.created', channel: 'ops' }]
    await api('PUT', ROUTES, { cookie: admin.cookie, json: { routes: instanceRoutes } })

    assert.equal((await api('GET', ROUTES, { cookie: owner.cookie })).status, 403)
    const denied = await api('PUT', ROUTES, { cookie: owner.cookie, json: { routes: [] } })
    assert.equal(denied.status, 403)
    assert.equal((await api('GET', MINE)).status, 401)
    assert.deepEqual(
      (await api('GET', ROUTES, { cookie: admin.cookie })).json.routes,
      instanceRoutes
    )

    const mine = await api('GET', MINE, { cookie: owner.cookie })
    assert.equal(mine.status, 200)
    const events = mine.json.events.map((e: { id: string }) => e.id)
    assert.notInclude(events, 'user.invited')
    assert.includeMembers(events, [
      'share.downloaded',
      'reverse_share.used',
      'auth.new_device_sign_in',
    ])
    const names = mine.json.channels.map((c: { name: string }) => c.name)
    assert.includeMembers(names, ['email', 'pager'])
    assert.notInclude(names, 'ops')
    assert.deepInclude(mine.json.channels, {
      name: 'pager',
      events: ['share.downloaded'],
      targets: { user: true, instance: false },
    })
    assert.deepEqual(mine.json.routes, [])

    const adminOnly = await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'user.invited', channel: 'pager' }] },
    })
    assert.equal(adminOnly.status, 400)
    assert.match(adminOnly.json.message, /can only be routed by an administrator/)
    const broadcast = await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.created', channel: 'ops' }] },
    })
    assert.equal(broadcast.status, 400)
    assert.match(broadcast.json.message, /channel "ops" cannot notify a single user/)

    const routes = [
      { event: 'share.downloaded', channel: 'pager' },
      { event: 'share.downloaded', channel: 'email' },
    ]
    const saved = await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes },
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    })
    assert.equal(saved.status, 200)
    assert.deepEqual(saved.json.routes, routes)
    const rows = await db
      .from('notification_routes')
      .where('user_id', owner.user.id)
      .select('locale')
    assert.deepEqual(
      rows.map((row) => row.locale),
      ['de-DE', 'de-DE']
    )
    assert.deepEqual(
      (await api('GET', ROUTES, { cookie: admin.cookie })).json.routes,
      instanceRoutes
    )
    const other = await shareUser()
    assert.deepEqual((await api('GET', MINE, { cookie: other.cookie })).json.routes, [])
  })

  test('users are offered e-mail only while SMTP is on; their e-mail routes wait while it is off', async ({
    assert,
  }) => {
    await channel('pager', { targets: { user: true, instance: false } })
    const admin = await shareUser({ admin: true })
    const owner = await shareUser()
    const channelsOf = async (cookie: string, path = MINE) =>
      (await api('GET', path, { cookie })).json.channels.map((c: { name: string }) => c.name)

    // SMTP off (the default): no e-mail column for a user, and no e-mail route accepted from him.
    assert.notInclude(await channelsOf(owner.cookie), 'email')
    assert.include(await channelsOf(owner.cookie), 'pager')
    const refused = await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.downloaded', channel: 'email' }] },
    })
    assert.equal(refused.status, 400)
    assert.equal(refused.json.message, 'The channel "email" is switched off')
    // Admins still route e-mail ahead of switching SMTP on.
    assert.include(await channelsOf(admin.cookie, ROUTES), 'email')

    // SMTP on: offered; a route saved.
    await setConfig('smtp.enabled', 'true')
    assert.include(await channelsOf(owner.cookie), 'email')
    const both = [
      { event: 'share.downloaded', channel: 'email' },
      { event: 'share.downloaded', channel: 'pager' },
    ]
    assert.equal(
      (await api('PUT', MINE, { cookie: owner.cookie, json: { routes: both } })).status,
      200
    )

    // SMTP off again: the e-mail route is neither listed nor lost when the user saves his other routes.
    await setConfig('smtp.enabled', 'false')
    assert.deepEqual((await api('GET', MINE, { cookie: owner.cookie })).json.routes, [both[1]])
    assert.equal(
      (await api('PUT', MINE, { cookie: owner.cookie, json: { routes: [] } })).status,
      200
    )
    const stored = await db
      .from('notification_routes')
      .where('user_id', owner.user.id)
      .select('channel')
    assert.deepEqual(
      stored.map((row) => row.channel),
      ['email']
    )
    await setConfig('smtp.enabled', 'true')
    assert.deepEqual((await api('GET', MINE, { cookie: owner.cookie })).json.routes, [both[0]])
  })

  test('an emitted event reaches a channel only through a route, once per channel and target', async ({
    assert,
  }) => {
    const probe = await channel('probe')
    const admin = await shareUser({ admin: true })
    const owner = await shareUser()
    const stranger = await shareUser()

    await notificationRouter.emit('share.created', shareOf(owner.user.id))
    await outbox.idle()
    assert.lengthOf(probe.delivered, 0)
    assert.lengthOf(await db.from(DELIVERIES_TABLE), 0)

    const mine = [{ event: 'share.created', channel: 'probe' }]
    await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: mine },
      headers: { 'accept-language': 'de-DE' },
    })
    await api('PUT', MINE, { cookie: stranger.cookie, json: { routes: mine } })
    await api('PUT', ROUTES, {
      cookie: admin.cookie,
      json: { routes: [...mine, { event: 'user.invited', channel: 'probe' }] },
    })

    await notificationRouter.emit('share.created', shareOf(owner.user.id))
    await outbox.idle('probe')
    const rows = await db
      .from(DELIVERIES_TABLE)
      .where('event_type', 'share.created')
      .orderBy('target')
    assert.deepEqual(
      rows.map((row) => [row.channel, row.target]),
      [
        ['probe', ''],
        ['probe', `user:${owner.user.id}`],
      ]
    )
    assert.equal(rows[0].event_id, rows[1].event_id)
    assert.lengthOf(probe.delivered, 2)
    const personal = probe.delivered.find((message) => message.recipient)!
    assert.deepEqual(personal.recipient, {
      userId: owner.user.id,
      email: owner.user.email,
      locale: 'de-DE',
    })
    assert.equal(personal.rendered.subject, 'Freigabe „Holiday pictures“ erstellt')
    const instance = probe.delivered.find((message) => !message.recipient)!
    assert.equal(instance.rendered.subject, 'Share "Holiday pictures" created')
    assert.equal(instance.eventId, personal.eventId)

    probe.delivered.length = 0
    await notificationRouter.emit('user.invited', {
      user: { id: stranger.user.id, username: 'bob', email: 'bob@example.com' },
      invitedBy: admin.user.id,
    })
    await notificationRouter.emit('share.downloaded', { ...shareOf(owner.user.id), file: null })
    await outbox.idle('probe')
    assert.deepEqual(
      probe.delivered.map((message) => [message.event, message.recipient?.userId ?? null]),
      [['user.invited', null]]
    )
    assert.include(probe.delivered[0].rendered.text, 'bob@example.com')
  })

  test('an event emitted in a transaction is delivered only if the transaction commits', async ({
    assert,
  }) => {
    const probe = await channel('probe')
    const owner = await shareUser()
    await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.deleted', channel: 'probe' }] },
    })
    const payload = { ...shareOf(owner.user.id), by: 'owner' as const }

    await db
      .transaction(async (trx) => {
        await notificationRouter.emit('share.deleted', payload, { client: trx })
        assert.lengthOf(await trx.from(DELIVERIES_TABLE), 1)
        throw new Error('the change failed')
      })
      .catch((error) => assert.equal(error.message, 'the change failed'))
    await outbox.idle('probe')
    assert.lengthOf(await db.from(DELIVERIES_TABLE), 0)
    assert.lengthOf(probe.delivered, 0)

    await db.transaction(async (trx) => {
      await notificationRouter.emit('share.deleted', payload, { client: trx })
    })
    await until(
      async () => probe.delivered.length,
      (count) => count === 1,
      'the committed event'
    )
    assert.equal(probe.delivered[0].event, 'share.deleted')
  })

  test('a channel that fails is retried by the outbox until it accepts', async ({ assert }) => {
    const flaky = await channel('flaky', { failFirst: 2 })
    const owner = await shareUser()
    await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.expiring', channel: 'flaky' }] },
    })

    await notificationRouter.emit('share.expiring', shareOf(owner.user.id))
    const [row] = await until(
      () => db.from(DELIVERIES_TABLE).where('channel', 'flaky'),
      (found) => found[0]?.status === 'delivered',
      'the delivery'
    )
    assert.equal(Number(row.attempts), 3)
    assert.equal(flaky.attempts, 3)
    assert.lengthOf(flaky.delivered, 1)
    assert.equal(flaky.delivered[0].event, 'share.expiring')
  }).timeout(20_000)

  test('the request that emitted answers while a slow channel is still blocked', async ({
    assert,
  }) => {
    const slow = await channel('slow')
    const owner = await shareUser()
    await api('PUT', MINE, {
      cookie: owner.cookie,
      json: { routes: [{ event: 'share.created', channel: 'slow' }] },
    })
    const gate = slow.block()
    try {
      const id = newShareId()
      // Were the request waiting for the channel, it would never answer: the gate opens only below.
      const created = await createShare(owner.cookie, { id, expiration: 'never' })
      assert.equal(created.status, 201)
      assert.lengthOf(slow.delivered, 0)
      await gate.entered
      assert.equal(slow.attempts, 1)
      assert.lengthOf(slow.delivered, 0)
      gate.release()
      await outbox.idle('slow')
      assert.deepEqual(
        slow.delivered.map((message) => [
          message.event,
          (message.payload as { share: { id: string } }).share.id,
        ]),
        [['share.created', id]]
      )
    } finally {
      gate.release()
    }
  }).timeout(20_000)
})
