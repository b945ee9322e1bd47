/**
 * The ntfy channel end to end: an admin sets the ntfy settings and routes
 * events to `ntfy` through the HTTP API, shares are created and completed
 * through the API, and the publications arrive at a local server answering
 * like ntfy, through the durable outbox: 429 and 5xx answers are retried, a
 * refusal (403) fails for good and is listed for admins with the token
 * redacted, and the API never waits for the ntfy server.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigVariable from '#models/config_variable'
import OutboxService from '#services/outbox/outbox_service'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  shareUser,
} from '#tests/helpers/shares'
import { startFakeNtfy, type FakeNtfy } from '../fake_ntfy.js'

const NTFY_KEYS = ['ntfy.server', 'ntfy.topic', 'ntfy.token', 'ntfy.priority']
/** The settings each test sets: ntfy's, and a confirmed public address (click URLs need one). */
const SETTINGS = [...NTFY_KEYS, 'general.appUrl']
const outbox = await app.container.make(OutboxService)

test.group('ntfy plugin | routed events through the outbox', (group) => {
  group.teardown(cleanCommittedData)
  let ntfy: FakeNtfy
  let admin: { cookie: string }

  /** PATCH /api/configs/admin as the admin; returns the response. */
  async function configure(changes: Record<string, unknown>, expectedStatus = 200) {
    const response = await api('PATCH', '/api/configs/admin', {
      cookie: admin.cookie,
      json: Object.entries(changes).map(([key, value]) => ({ key, value })),
    })
    if (response.status !== expectedStatus)
      throw new Error(`PATCH /api/configs/admin: ${response.status} ${response.bytes}`)
    return response
  }

  /** PUT /api/notifications/routes: `events` to ntfy. */
  async function route(...events: string[]) {
    const response = await api('PUT', '/api/notifications/routes', {
      cookie: admin.cookie,
      json: { routes: events.map((event) => ({ event, channel: 'ntfy' })) },
    })
    if (response.status !== 200)
      throw new Error(`PUT /api/notifications/routes: ${response.status} ${response.bytes}`)
  }

  const ntfyRows = () =>
    db.from('notification_deliveries').where('channel', 'ntfy').orderBy('created_at')

  group.each.setup(async () => {
    ntfy = await startFakeNtfy()
    admin = await shareUser({ admin: true })
    await configure({
      'ntfy.server': ntfy.url,
      'ntfy.topic': 'tern_functional',
      'general.appUrl': 'https://tern.example.com',
    })
    return async () => {
      // Closed first: a held request fails at once instead of waiting for its 10 s timeout.
      await ntfy.close()
      await outbox.idle('ntfy').catch(() => {})
      await db.from('notification_routes').whereNull('user_id').delete()
      await db.from('notification_deliveries').delete()
      await ConfigVariable.query().whereIn('key', SETTINGS).update({ value: null })
      await cleanupShareTests()
    }
  })

  test('the routes API offers ntfy for every event, instance-wide only', async ({ assert }) => {
    const routing = await api('GET', '/api/notifications/routes', { cookie: admin.cookie })
    const channel = routing.json.channels.find((item: { name: string }) => item.name === 'ntfy')
    assert.deepEqual(channel.targets, { user: false, instance: true })
    assert.lengthOf(channel.events, 11)
    const user = await shareUser()
    const mine = await api('PUT', '/api/user/notifications', {
      cookie: user.cookie,
      json: { routes: [{ event: 'share.created', channel: 'ntfy' }] },
    })
    assert.equal(mine.status, 400)
    assert.equal(mine.json.message, 'The channel "ntfy" cannot notify a single user')
  })

  test('routed share events are published to the topic with the rendered texts and the share as click URL', async ({
    assert,
  }) => {
    await route('share.created', 'share.completed')
    const owner = await shareUser()
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    const [created, completed] = await ntfy.waitFor(2)
    await outbox.idle('ntfy')

    assert.deepEqual([created.topic, completed.topic], ['tern_functional', 'tern_functional'])
    assert.deepEqual(created.tags, ['package', 'share.created'])
    assert.deepEqual(completed.tags, ['white_check_mark', 'share.completed'])
    assert.match(completed.title!, /is ready$/)
    assert.include(completed.message, '1 file')
    assert.match(created.click!, new RegExp(`/s/${share.id}$`))
    assert.include(created.message, created.click!)
    assert.equal(created.priority, 3)
    const rows = await ntfyRows()
    assert.deepEqual(
      rows.map((row) => [row.event_type, row.status, Number(row.attempts)]),
      [
        ['share.created', 'delivered', 1],
        ['share.completed', 'delivered', 1],
      ]
    )
  })

  test('429 and 5xx answers are retried by the outbox until the server accepts', async ({
    assert,
  }) => {
    ntfy.reply({ status: 429, headers: { 'retry-after': '0' } }, 503)
    await route('share.created')
    const owner = await shareUser()
    const created = await createShare(owner.cookie, { id: newShareId() })
    const attempts = await ntfy.waitFor(3, 15_000)
    await outbox.idle('ntfy')
    assert.deepEqual(
      attempts.map((publication) => publication.status),
      [429, 503, 200]
    )
    assert.lengthOf(
      new Set(attempts.map((publication) => publication.headers['x-tern-event-id'])),
      1
    )
    assert.match(attempts[2].click!, new RegExp(`/s/${created.json.id}$`))
    const [row] = await ntfyRows()
    assert.containsSubset(row, { status: 'delivered', attempts: 3 })
  }).timeout(30_000)

  test('a refused token fails for good, listed for admins without the token; a settings change applies to the retry', async ({
    assert,
  }) => {
    ntfy.requireToken('tk_right')
    await configure({ 'ntfy.token': 'tk_wrong_secret_42' })
    await route('share.created')
    const owner = await shareUser()
    await createShare(owner.cookie, { id: newShareId() })
    await ntfy.waitFor(1)
    await outbox.idle('ntfy')

    const listed = await api('GET', '/api/notifications/deliveries?status=failed&channel=ntfy', {
      cookie: admin.cookie,
    })
    assert.equal(listed.status, 200)
    assert.lengthOf(listed.json, 1)
    assert.containsSubset(listed.json[0], {
      channel: 'ntfy',
      eventType: 'share.created',
      attempts: 1,
      lastError: 'ntfy: HTTP 403: forbidden',
    })
    assert.notInclude(listed.bytes.toString(), 'tk_wrong_secret_42')
    assert.equal(ntfy.received[0].headers.authorization, 'Bearer tk_wrong_secret_42')

    await configure({ 'ntfy.token': 'tk_right' })
    const retried = await api('POST', `/api/notifications/deliveries/${listed.json[0].id}/retry`, {
      cookie: admin.cookie,
    })
    assert.equal(retried.status, 200)
    await ntfy.waitFor(2)
    await outbox.idle('ntfy')
    assert.deepEqual(
      ntfy.received.map((publication) => publication.status),
      [403, 200]
    )
  })

  test('the API answers without waiting for an ntfy server that does not answer', async ({
    assert,
  }) => {
    ntfy.reply('hang')
    await route('share.created')
    const owner = await shareUser()
    const started = Date.now()
    await createShare(owner.cookie, { id: newShareId() })
    assert.isBelow(Date.now() - started, 5000)
    await ntfy.waitFor(1)
    const [row] = await ntfyRows()
    assert.equal(row.status, 'pending', 'the attempt is still in flight')
  })

  test('admin changes are validated by the settings API', async ({ assert }) => {
    const topic = await configure({ 'ntfy.topic': 'no/slash' }, 400)
    assert.equal(
      topic.json.message,
      'The ntfy topic may only hold 1 to 64 letters, digits, "-" and "_"'
    )
    const server = await configure({ 'ntfy.server': 'ftp://ntfy.example.com' }, 400)
    assert.match(
      server.json.message,
      /^The ntfy server URL is refused \(only http:\/\/ and https:\/\/ URLs are allowed\)/
    )
    const priority = await configure({ 'ntfy.priority': 9 }, 400)
    assert.match(priority.json.message, /ntfy.priority/)
    const masked = await api('GET', '/api/configs/admin/ntfy', { cookie: admin.cookie })
    assert.deepEqual(
      masked.json.map((item: { key: string }) => item.key),
      NTFY_KEYS
    )
  })
})
