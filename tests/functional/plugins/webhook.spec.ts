/**
 * The webhook plugin end to end: routes and settings changed through the
 * admin API, shares created, completed, downloaded, deleted and expired
 * through the real API and jobs, and the requests read back from a real
 * HTTP receiver on loopback. Signatures are recomputed here with
 * node:crypto, independently of the plugin's code. Since notification
 * routing the plugin only receives routed events: each test starts with the
 * instance routes a migrated install has (the six lifecycle events).
 */
import { createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { notifications } from '#extensions/notifications/main'
import ConfigVariable from '#models/config_variable'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import NotificationRouter from '#services/notifications/notification_router'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  setConfig,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '#tests/helpers/webhook_receiver'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  clearWebhookRoutes,
  routeToWebhook,
  WEBHOOK_LIFECYCLE_EVENTS,
} from '#tests/helpers/webhook_routes'

const WEBHOOK_KEYS = [
  'webhook.enabled',
  'webhook.urls',
  'webhook.secret',
  'webhook.events',
  'webhook.timeout',
  'webhook.maxAttempts',
]
const SECRET = 'functional-webhook-secret'

/** The plugin's delivery queue in this process (to wait until deliveries settled). */
async function dispatcher() {
  return app.container.make('webhook.dispatcher')
}

/** The rows of the webhook channel that are requests to a URL (not the routed event they were fanned out from). */
function urlRows() {
  return db.from('notification_deliveries').where('channel', 'webhook').whereNot('target', '')
}

/** `sha256=<hex HMAC-SHA256(secret, "<X-Tern-Timestamp>.<raw body>")>`, computed here. */
function expectedSignature(secret: string, request: ReceivedWebhook): string {
  const material = `${request.headers['x-tern-timestamp']}.${request.body}`
  return `sha256=${createHmac('sha256', secret).update(material).digest('hex')}`
}

test.group('Plugins | webhook delivery', (group) => {
  group.teardown(cleanCommittedData)
  let admin: { cookie: string }
  let receivers: WebhookReceiver[] = []

  /** A receiver closed after the test. */
  async function receiver(options: Parameters<typeof startWebhookReceiver>[0] = {}) {
    const started = await startWebhookReceiver(options)
    receivers.push(started)
    return started
  }

  /** Changes webhook settings through `PATCH /api/configs/admin` as the admin; returns the response. */
  async function configure(changes: Record<string, unknown>, expectedStatus = 200) {
    const response = await api('PATCH', '/api/configs/admin', {
      cookie: admin.cookie,
      json: Object.entries(changes).map(([key, value]) => ({ key, value })),
    })
    if (response.status !== expectedStatus) {
      throw new Error(`PATCH /api/configs/admin: ${response.status} ${response.bytes}`)
    }
    return response
  }

  /** Webhooks on, to `urls`, signed with SECRET. */
  function enableFor(...urls: string[]) {
    return configure({
      'webhook.enabled': true,
      'webhook.urls': urls.join('\n'),
      'webhook.secret': SECRET,
    })
  }

  group.each.setup(async () => {
    admin = await shareUser({ admin: true })
    await routeToWebhook()
  })

  group.each.teardown(async () => {
    const queue = await dispatcher()
    for (const started of receivers) await started.close()
    receivers = []
    await queue.idle()
    await ConfigVariable.query().whereIn('key', WEBHOOK_KEYS).update({ value: null })
    await cleanupShareTests()
    await queue.idle()
    await db.from('notification_deliveries').delete()
    await clearWebhookRoutes()
  })

  test('is enabled: its channel is registered and its category listed for admins', async ({
    assert,
  }) => {
    assert.isTrue(notifications.has('webhook'))
    const response = await api('GET', '/api/configs/admin/webhook', { cookie: admin.cookie })
    assert.equal(response.status, 200)
    assert.deepEqual(
      response.json.map((item: { key: string }) => item.key),
      WEBHOOK_KEYS
    )
    assert.containsSubset(
      response.json.find((item: { key: string }) => item.key === 'webhook.enabled'),
      {
        value: 'false',
        type: 'boolean',
      }
    )
  })

  test('posts share.created and share.completed, signed, when a share is created and completed', async ({
    assert,
  }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    const masked = await api('GET', '/api/configs/admin/webhook', { cookie: admin.cookie })
    const secret = masked.json.find((item: { key: string }) => item.key === 'webhook.secret')
    assert.notEqual(secret.value, SECRET, 'the secret is obscured when read back')

    const owner = await shareUser()
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    const [created, completed] = await hook.waitFor(2)
    await (await dispatcher()).idle()

    assert.lengthOf(hook.received, 2)
    assert.deepEqual(
      [created.json.event, completed.json.event],
      ['share.created', 'share.completed']
    )
    // The keys the lifecycle webhooks always had come first, then the event's payload.
    assert.deepEqual(Object.keys(created.json.data), ['shareId', 'creatorId', 'share'])
    assert.containsSubset(created.json.data, {
      shareId: share.id,
      creatorId: owner.user.id,
      share: { id: share.id, creatorId: owner.user.id },
    })
    assert.deepEqual(Object.keys(completed.json.data).slice(0, 4), [
      'shareId',
      'creatorId',
      'fileCount',
      'size',
    ])
    assert.containsSubset(completed.json.data, {
      shareId: share.id,
      creatorId: owner.user.id,
      fileCount: 1,
      size: 5,
    })
    assert.match(completed.json.data.share.url, new RegExp(`/s/${share.id}$`))
    for (const request of [created, completed]) {
      assert.equal(request.method, 'POST')
      assert.equal(request.headers['content-type'], 'application/json')
      assert.equal(request.headers['user-agent'], 'Tern-Webhook/1.0.0')
      assert.equal(request.headers['x-tern-event'], request.json.event)
      assert.equal(request.headers['x-tern-delivery'], request.json.id)
      assert.match(request.json.occurredAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.isAtMost(Math.abs(Number(request.headers['x-tern-timestamp']) - Date.now() / 1000), 60)
      assert.equal(request.headers['x-tern-signature'], expectedSignature(SECRET, request))
      assert.notEqual(
        request.headers['x-tern-signature'],
        expectedSignature('another-secret', request)
      )
    }
    assert.notEqual(created.json.id, completed.json.id)
  })

  test('sends downloads, deletions, expiries and reverse-share uses too', async ({ assert }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    const owner = await shareUser()
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    const token = await shareToken(share.id)
    const download = await api('GET', `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`, {
      cookie: token.cookie,
    })
    assert.equal(download.status, 200)
    const stored = await db
      .from('notification_deliveries')
      .where('event_type', 'share.downloaded')
      .where('target', '')
      .count('* as n')
    assert.equal(Number(stored[0].n), 1, 'the download event is stored before the answer')
    assert.equal(
      (await api('DELETE', `/api/shares/${share.id}`, { cookie: share.cookie })).status,
      200
    )

    const expiring = await createCompletedShare({
      cookie: owner.cookie,
      files: { 'b.txt': 'b' },
      expiration: '1-minute',
    })
    const past = DateTime.utc().minus({ days: 1 }).toFormat('yyyy-MM-dd HH:mm:ss')
    await db.from('shares').where('id', expiring.id).update({ expiration: past })
    assert.include(await (await app.container.make(CleanupJobs)).expiredShares(), expiring.id)
    const router = await app.container.make(NotificationRouter)
    const reverseShare = { id: 'rs-1', creatorId: owner.user.id, remainingUses: 0, expiresAt: null }
    const used = {
      id: expiring.id,
      name: null,
      url: 'https://tern.test/s/x',
      expiresAt: null,
      creatorId: null,
    }
    await router.emit('reverse_share.used', { reverseShare, share: used })
    await (await dispatcher()).idle()

    const byEvent = (event: string) =>
      hook.received.filter((request) => request.json.event === event).map((r) => r.json.data)
    const legacy = (data: Record<string, unknown>[], keys: string[]) =>
      data.map((item) =>
        Object.fromEntries(Object.entries(item).filter(([key]) => keys.includes(key)))
      )
    assert.deepEqual(legacy(byEvent('share.downloaded'), ['shareId', 'fileId']), [
      { shareId: share.id, fileId: share.fileIds['a.txt'] },
    ])
    assert.containsSubset(byEvent('share.downloaded'), [
      { file: { id: share.fileIds['a.txt'], name: 'a.txt', size: 5 } },
    ])
    assert.deepEqual(legacy(byEvent('share.deleted'), ['shareId', 'reason']), [
      { shareId: share.id, reason: null },
    ])
    assert.containsSubset(byEvent('share.deleted'), [{ by: 'owner', share: { id: share.id } }])
    assert.deepEqual(legacy(byEvent('share.expired'), ['shareId']), [{ shareId: expiring.id }])
    assert.deepEqual(byEvent('reverse_share.used'), [
      { reverseShareId: 'rs-1', shareId: expiring.id, reverseShare, share: used },
    ])
    for (const request of hook.received) {
      assert.equal(request.headers['x-tern-signature'], expectedSignature(SECRET, request))
    }
  })

  test('a share the clean-up job deletes is sent with its reason, as before routing', async ({
    assert,
  }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    const owner = await shareUser()
    const abandoned = await createShare(owner.cookie, { id: newShareId() })
    const deleted = await (
      await app.container.make(CleanupJobs)
    ).unfinishedShares(DateTime.utc().plus({ days: 2 }))
    assert.include(deleted, abandoned.json.id)
    await (await dispatcher()).idle()
    const [request] = hook.received.filter((r) => r.json.event === 'share.deleted')
    assert.deepEqual(Object.keys(request.json.data).slice(0, 2), ['shareId', 'reason'])
    assert.containsSubset(request.json.data, {
      shareId: abandoned.json.id,
      reason: 'Unfinished share',
      by: 'system',
    })
  })

  test('a settings change applies to the next event, without restart', async ({ assert }) => {
    const first = await receiver()
    const second = await receiver()
    const owner = await shareUser()
    await enableFor(first.url)
    const one = await createShare(owner.cookie, { id: newShareId() })
    await first.waitFor(1)

    await configure({ 'webhook.urls': second.url, 'webhook.secret': 'rotated-secret' })
    const two = await createShare(owner.cookie, { id: newShareId() })
    const [received] = await second.waitFor(1)
    await (await dispatcher()).idle()

    assert.deepEqual(
      first.received.map((r) => r.json.data.shareId),
      [one.json.id]
    )
    assert.deepEqual(
      second.received.map((r) => r.json.data.shareId),
      [two.json.id]
    )
    assert.equal(
      received.headers['x-tern-signature'],
      expectedSignature('rotated-secret', received)
    )

    await configure({ 'webhook.enabled': false })
    await createShare(owner.cookie, { id: newShareId() })
    await (await dispatcher()).idle()
    assert.lengthOf(second.received, 1)
    assert.lengthOf(first.received, 1)
  })

  test('retries after 500 answers and delivers on the third attempt', async ({ assert }) => {
    const hook = await receiver()
    hook.reply(500, 500)
    await enableFor(hook.url)
    await configure({ 'webhook.maxAttempts': 5 })
    const owner = await shareUser()
    const created = await createShare(owner.cookie, { id: newShareId() })
    const attempts = await hook.waitFor(3)
    await (await dispatcher()).idle()

    assert.lengthOf(hook.received, 3)
    assert.deepEqual(
      attempts.map((r) => r.headers['x-tern-attempt']),
      ['1', '2', '3']
    )
    assert.lengthOf(new Set(attempts.map((r) => r.headers['x-tern-delivery'])), 1)
    assert.deepEqual(
      attempts.map((r) => r.json.data.shareId),
      Array(3).fill(created.json.id)
    )
    for (const request of attempts)
      assert.equal(request.headers['x-tern-signature'], expectedSignature(SECRET, request))
  })

  test('a 400 answer is not retried', async ({ assert }) => {
    const hook = await receiver()
    hook.reply(400)
    await enableFor(hook.url)
    const owner = await shareUser()
    await createShare(owner.cookie, { id: newShareId() })
    await hook.waitFor(1)
    await (await dispatcher()).idle()
    // Failed is final: no attempt can follow.
    const rows = await urlRows()
    assert.deepEqual(
      rows.map((row) => [row.status, Number(row.attempts)]),
      [['failed', 1]]
    )
    assert.lengthOf(hook.received, 1)

    // Admins list the failures of one channel (the webhook deliveries page does).
    const listed = await api('GET', '/api/notifications/deliveries?status=failed&channel=webhook', {
      cookie: admin.cookie,
    })
    assert.equal(listed.status, 200)
    assert.deepEqual(
      listed.json.map((row: { id: string }) => row.id),
      [rows[0].id]
    )
    assert.containsSubset(listed.json[0], {
      channel: 'webhook',
      target: hook.url,
      attempts: 1,
      lastError: 'HTTP 400 Bad Request: status 400',
    })
    const other = await api('GET', '/api/notifications/deliveries?status=failed&channel=email', {
      cookie: admin.cookie,
    })
    assert.deepEqual(other.json, [])
    const refused = await api('GET', '/api/notifications/deliveries?channel=web%20hook', {
      cookie: admin.cookie,
    })
    assert.equal(refused.status, 400)
    assert.match(refused.json.message, /^The channel filter must be a channel name/)
  })

  test('gives up after webhook.maxAttempts', async ({ assert }) => {
    const hook = await receiver({ defaultReply: 503 })
    await enableFor(hook.url)
    await configure({ 'webhook.maxAttempts': 2 })
    const owner = await shareUser()
    await createShare(owner.cookie, { id: newShareId() })
    await hook.waitFor(2)
    await (await dispatcher()).idle()
    assert.lengthOf(hook.received, 2)
  })

  test('a receiver that never answers does not slow the API response', async ({ assert }) => {
    const hook = await receiver({ defaultReply: 'hang' })
    await enableFor(hook.url)
    await configure({ 'webhook.timeout': 30, 'webhook.maxAttempts': 1 })
    const owner = await shareUser()

    const started = Date.now()
    const response = await api('POST', '/api/shares', {
      cookie: owner.cookie,
      json: { id: newShareId(), expiration: 'never' },
    })
    const elapsed = Date.now() - started
    assert.equal(response.status, 201)
    await hook.waitFor(1)
    assert.equal(hook.hanging, 1, 'the receiver still holds the request')
    assert.isBelow(elapsed, 5000, 'the API answered long before the 30 s webhook timeout')

    const unreachable = await receiver()
    await unreachable.close()
    await configure({ 'webhook.urls': unreachable.url })
    const again = Date.now()
    assert.equal(
      (
        await api('POST', '/api/shares', {
          cookie: owner.cookie,
          json: { id: newShareId(), expiration: 'never' },
        })
      ).status,
      201
    )
    assert.isBelow(Date.now() - again, 5000)
  })

  test('nothing is sent while webhooks are disabled', async ({ assert }) => {
    const hook = await receiver()
    await configure({
      'webhook.enabled': false,
      'webhook.urls': hook.url,
      'webhook.secret': SECRET,
    })
    const owner = await shareUser()
    await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    await (await dispatcher()).idle()
    // The routed events were handed to the channel, which dropped them: no request was ever stored.
    assert.lengthOf(await urlRows(), 0)
    const routed = await db
      .from('notification_deliveries')
      .where('channel', 'webhook')
      .where('target', '')
    assert.deepEqual(
      routed.map((row) => row.status),
      ['delivered', 'delivered']
    )
    assert.lengthOf(hook.received, 0)
  })

  test('an event that is not routed to webhook is not sent', async ({ assert }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    const routes = await api('PUT', '/api/notifications/routes', {
      cookie: admin.cookie,
      json: { routes: [{ event: 'share.completed', channel: 'webhook' }] },
    })
    assert.equal(routes.status, 200)
    const owner = await shareUser()
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    await (await dispatcher()).idle()
    assert.deepEqual(
      hook.received.map((r) => [r.json.event, r.json.data.shareId]),
      [['share.completed', share.id]]
    )

    // Without any route, nothing at all is stored for the channel.
    assert.equal(
      (
        await api('PUT', '/api/notifications/routes', {
          cookie: admin.cookie,
          json: { routes: [] },
        })
      ).status,
      200
    )
    const before = (await db.from('notification_deliveries').where('channel', 'webhook')).length
    await createCompletedShare({ cookie: owner.cookie, files: { 'b.txt': 'b' } })
    await (await dispatcher()).idle()
    assert.lengthOf(hook.received, 1)
    assert.lengthOf(await db.from('notification_deliveries').where('channel', 'webhook'), before)
  })

  test('the routes API offers webhook for every event, instance-wide only', async ({ assert }) => {
    const routes = await api('GET', '/api/notifications/routes', { cookie: admin.cookie })
    assert.equal(routes.status, 200)
    const webhook = routes.json.channels.find(
      (channel: { name: string }) => channel.name === 'webhook'
    )
    assert.deepEqual(webhook.targets, { user: false, instance: true })
    assert.lengthOf(webhook.events, 11)
    assert.sameMembers(
      routes.json.routes
        .filter((route: { channel: string }) => route.channel === 'webhook')
        .map((route: { event: string }) => route.event),
      WEBHOOK_LIFECYCLE_EVENTS
    )
    const user = await shareUser()
    const mine = await api('GET', '/api/user/notifications', { cookie: user.cookie })
    assert.notInclude(
      mine.json.channels.map((channel: { name: string }) => channel.name),
      'webhook'
    )
  })

  test('only the events of webhook.events are sent', async ({ assert }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    await configure({ 'webhook.events': 'share.completed, share:deleted' })
    const owner = await shareUser()
    const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
    await api('DELETE', `/api/shares/${share.id}`, { cookie: share.cookie })
    await (await dispatcher()).idle()
    assert.deepEqual(
      hook.received.map((r) => r.json.event),
      ['share.completed', 'share.deleted']
    )
  })

  test('the admin API refuses invalid URLs and events; a stored invalid URL is skipped', async ({
    assert,
  }) => {
    const hook = await receiver()
    const badUrl = await configure(
      { 'webhook.urls': `${hook.url}\nftp://files.example.com/in` },
      400
    )
    assert.equal(
      badUrl.json.message,
      'Webhook URL on line 2 is refused (only http:// and https:// URLs are allowed): ftp://files.example.com/in'
    )
    const badEvent = await configure({ 'webhook.events': 'share.uploaded' }, 400)
    assert.match(badEvent.json.message, /^Unknown webhook event "share.uploaded"/)
    const badTimeout = await configure({ 'webhook.timeout': 0 }, 400)
    assert.match(badTimeout.json.message, /webhook.timeout/)

    await configure({ 'webhook.enabled': true, 'webhook.secret': SECRET })
    await setConfig('webhook.urls', `javascript:alert(1)\n${hook.url}`)
    const owner = await shareUser()
    await createShare(owner.cookie, { id: newShareId() })
    await (await dispatcher()).idle()
    assert.deepEqual(
      hook.received.map((r) => r.json.event),
      ['share.created']
    )
  })

  test('the webhook notification channel posts a notification to the configured URLs', async ({
    assert,
  }) => {
    const hook = await receiver()
    await enableFor(hook.url)
    await notifications.send('webhook', {
      type: 'share:completed',
      to: [],
      subject: 'Share ready',
      text: 'Your share is ready',
      data: { shareId: 'from-channel' },
    })
    const [request] = await hook.waitFor(1)
    assert.equal(request.headers['x-tern-event'], 'share.completed')
    assert.deepEqual(request.json.data, {
      to: [],
      subject: 'Share ready',
      text: 'Your share is ready',
      data: { shareId: 'from-channel' },
    })
    assert.equal(request.headers['x-tern-signature'], expectedSignature(SECRET, request))
  })
})
