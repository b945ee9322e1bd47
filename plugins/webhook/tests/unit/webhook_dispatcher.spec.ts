import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createServer } from 'node:net'
import {
  NOTIFICATION_EVENTS,
  NotificationDeliveryError,
  NotificationManager,
  notificationErrors,
  notifications,
  type NotificationMessage,
} from '#extensions/notifications/main'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { routedData, WebhookChannel } from '../../src/channels/webhook_channel.js'
import { E_WEBHOOK_DISABLED, E_WEBHOOK_NOT_CONFIGURED } from '../../src/errors.js'
import type { WebhookSettings } from '../../src/settings.js'
import { verifyWebhookSignature } from '../../src/signature.js'
import { WebhookDispatcher, type WebhookLogger } from '../../src/webhook_dispatcher.js'

/** A logger that keeps what it is given (the dispatcher's only collaborator besides the network). */
class RecordingLogger implements WebhookLogger {
  entries: {
    level: 'info' | 'warn' | 'error'
    bindings: Record<string, unknown>
    message: string
  }[] = []
  info(bindings: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'info', bindings, message })
  }
  warn(bindings: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'warn', bindings, message })
  }
  error(bindings: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'error', bindings, message })
  }
  at(level: 'info' | 'warn' | 'error') {
    return this.entries.filter((entry) => entry.level === level)
  }
}

function settings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    enabled: true,
    urls: [],
    secret: 'unit-secret',
    events: [],
    timeoutMs: 2000,
    maxAttempts: 3,
    ...overrides,
  }
}

let lanes = 0

/**
 * A dispatcher reading `current.settings` on every event, with short waits
 * between attempts, on an outbox channel of its own (the plugin's `webhook`
 * channel is left to the plugin; `channel` names a lane to share).
 */
function dispatcherWith(
  current: { settings: WebhookSettings },
  retry = { baseDelayMs: 20, maxDelayMs: 200 },
  channel = `webhook-unit-${process.pid}-${++lanes}`
) {
  const logger = new RecordingLogger()
  const dispatcher = new WebhookDispatcher({
    settings: async () => current.settings,
    logger,
    userAgent: 'Tern-Webhook/9.9.9',
    retry,
    channel,
  })
  return { dispatcher, logger }
}

/** The outbox rows of a dispatcher's channel. */
function rowsOf(dispatcher: WebhookDispatcher) {
  return db
    .from('notification_deliveries')
    .where('channel', dispatcher.channel)
    .orderBy('created_at')
}

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

test.group('Webhook plugin | dispatcher', (group) => {
  let receiver: WebhookReceiver
  let dispatchers: WebhookDispatcher[] = []
  group.each.setup(async () => {
    receiver = await startWebhookReceiver()
    return async () => {
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.close()))
      dispatchers = []
      await receiver.close()
    }
  })
  const make = (
    current: { settings: WebhookSettings },
    retry?: { baseDelayMs: number; maxDelayMs: number },
    channel?: string
  ) => {
    const made = dispatcherWith(current, retry, channel)
    dispatchers.push(made.dispatcher)
    return made
  }

  test('posts the event as signed JSON with the documented headers', async ({ assert }) => {
    const { dispatcher, logger } = make({ settings: settings({ urls: [receiver.url] }) })
    const before = Date.now()
    await dispatcher.send('share:created', { shareId: 'abc', creatorId: null })
    await dispatcher.idle()

    const [request] = await receiver.waitFor(1)
    assert.equal(request.method, 'POST')
    assert.equal(request.path, '/hook')
    assert.equal(request.headers['content-type'], 'application/json')
    assert.equal(request.headers['user-agent'], 'Tern-Webhook/9.9.9')
    assert.equal(request.headers['x-tern-event'], 'share.created')
    assert.equal(request.headers['x-tern-attempt'], '1')
    assert.match(request.json.id, /^[0-9a-f-]{36}$/)
    assert.equal(request.headers['x-tern-delivery'], request.json.id)
    assert.deepEqual(request.json.data, { shareId: 'abc', creatorId: null })
    assert.equal(request.json.event, 'share.created')
    assert.equal(new Date(request.json.occurredAt).toISOString(), request.json.occurredAt)
    assert.isAtLeast(Date.parse(request.json.occurredAt), before - 1)
    const timestamp = request.headers['x-tern-timestamp'] as string
    assert.isTrue(
      verifyWebhookSignature(
        'unit-secret',
        timestamp,
        request.body,
        request.headers['x-tern-signature'] as string
      )
    )
    assert.isFalse(
      verifyWebhookSignature(
        'other-secret',
        timestamp,
        request.body,
        request.headers['x-tern-signature'] as string
      )
    )
    assert.lengthOf(logger.at('info'), 1)
    assert.lengthOf(logger.at('error'), 0)
  })

  test('sends to every URL with a delivery id of its own, unsigned without a secret', async ({
    assert,
  }) => {
    const second = await startWebhookReceiver({ path: '/other' })
    try {
      const { dispatcher } = make({
        settings: settings({ urls: [receiver.url, second.url], secret: '' }),
      })
      await dispatcher.send('share:deleted', { shareId: 'x', reason: null })
      await dispatcher.idle()
      const [first] = await receiver.waitFor(1)
      const [other] = await second.waitFor(1)
      assert.equal(other.path, '/other')
      assert.notEqual(first.json.id, other.json.id)
      assert.equal(first.json.occurredAt, other.json.occurredAt)
      assert.notProperty(first.headers, 'x-tern-signature')
    } finally {
      await second.close()
    }
  })

  test('send stores the delivery before it resolves, without waiting for the receiver', async ({
    assert,
  }) => {
    receiver.reply('hang')
    let reads = 0
    const current = settings({ urls: [receiver.url], timeoutMs: 30_000 })
    const { dispatcher } = make({
      get settings() {
        reads++
        return current
      },
    })
    await dispatcher.send('share:created', { shareId: 'a' })
    const [row] = await rowsOf(dispatcher)
    assert.containsSubset(row, {
      event_type: 'share.created',
      target: receiver.url,
      status: 'pending',
      max_attempts: 3,
    })
    assert.deepEqual(JSON.parse(row.payload).data, { shareId: 'a' })
    const [request] = await receiver.waitFor(1)
    assert.equal(request.json.id, row.id, 'the row id is the delivery id')
    // Read once for the event and once for the (hanging) attempt's secret and timeout.
    // Counted only now: the outbox may start the attempt before dispatch's caller resumes.
    assert.equal(reads, 2)
  })

  test('a URL longer than the stored target column still receives, unchanged', async ({
    assert,
  }) => {
    const long = `${receiver.url}?pad=${'x'.repeat(700)}`
    const { dispatcher } = make({ settings: settings({ urls: [long] }) })
    await dispatcher.send('share:created', { shareId: 'long' })
    await dispatcher.idle()
    const [request] = await receiver.waitFor(1)
    assert.equal(request.path, `/hook?pad=${'x'.repeat(700)}`)
    const [row] = await rowsOf(dispatcher)
    assert.lengthOf(row.target, 512)
  })

  test('retries 500 answers with growing waits and delivers on the third attempt', async ({
    assert,
  }) => {
    receiver.reply(500, 500)
    const { dispatcher, logger } = make(
      { settings: settings({ urls: [receiver.url], maxAttempts: 5 }) },
      { baseDelayMs: 60, maxDelayMs: 1000 }
    )
    await dispatcher.send('share:completed', { shareId: 'r' })
    await dispatcher.idle()

    const requests = await receiver.waitFor(3)
    assert.lengthOf(receiver.received, 3)
    assert.deepEqual(
      requests.map((r) => r.headers['x-tern-attempt']),
      ['1', '2', '3']
    )
    assert.lengthOf(new Set(requests.map((r) => r.headers['x-tern-delivery'])), 1)
    assert.lengthOf(new Set(requests.map((r) => r.body)), 1)
    // Jitter: the n-th wait lies between half and all of 60 ms * 2^(n-1).
    assert.isAtLeast(requests[1].receivedAt - requests[0].receivedAt, 28)
    assert.isAtLeast(requests[2].receivedAt - requests[1].receivedAt, 58)
    const warnings = logger.at('warn')
    assert.lengthOf(warnings, 2)
    assert.match(warnings[0].message, /attempt 1\/5\), retrying: HTTP 500/)
    assert.match(warnings[1].message, /attempt 2\/5\), retrying: HTTP 500/)
    assert.equal(warnings[0].bindings.reason, 'HTTP 500 Internal Server Error: status 500')
    assert.lengthOf(logger.at('error'), 0)
    assert.lengthOf(logger.at('info'), 1)
  })

  test('a 4xx answer other than 429 is not retried and is logged with the reason', async ({
    assert,
  }) => {
    receiver.reply({ status: 400, body: 'bad payload' })
    const { dispatcher, logger } = make({ settings: settings({ urls: [receiver.url] }) })
    await dispatcher.send('share:created', { shareId: 'b' })
    await dispatcher.idle()
    // Failed is final: no attempt can follow.
    assert.containsSubset(await rowsOf(dispatcher), [{ status: 'failed', attempts: 1 }])
    assert.lengthOf(receiver.received, 1)
    const [failure] = logger.at('error')
    assert.match(failure.message, /failed, not retried: HTTP 400 Bad Request: bad payload$/)
    assert.equal(failure.bindings.status, 400)
  })

  test('429 is retried after the Retry-After the receiver asked for', async ({ assert }) => {
    receiver.reply({ status: 429, headers: { 'retry-after': '1' } })
    const { dispatcher } = make(
      { settings: settings({ urls: [receiver.url] }) },
      { baseDelayMs: 10, maxDelayMs: 5000 }
    )
    await dispatcher.send('share:created', { shareId: 'c' })
    await dispatcher.idle()
    const [first, second] = await receiver.waitFor(2)
    assert.isAtLeast(second.receivedAt - first.receivedAt, 950)
  })

  test('gives up after maxAttempts and says so', async ({ assert }) => {
    const { dispatcher, logger } = make({
      settings: settings({ urls: [receiver.url], maxAttempts: 3 }),
    })
    receiver.reply(503, 503, 503, 503)
    await dispatcher.send('share:expired', { shareId: 'd' })
    await dispatcher.idle()
    assert.lengthOf(receiver.received, 3)
    const [failure] = logger.at('error')
    assert.match(failure.message, /failed, gave up after 3 attempt\(s\): HTTP 503/)
  })

  test('network errors are retried and logged with the cause', async ({ assert }) => {
    const port = await closedPort()
    const { dispatcher, logger } = make({
      settings: settings({ urls: [`http://127.0.0.1:${port}/x`], maxAttempts: 2 }),
    })
    await dispatcher.send('share:created', { shareId: 'e' })
    await dispatcher.idle()
    assert.lengthOf(logger.at('warn'), 1)
    assert.match(logger.at('warn')[0].message, /ECONNREFUSED/)
    assert.match(logger.at('error')[0].message, /gave up after 2 attempt\(s\): .*ECONNREFUSED/)
  })

  test('a receiver that does not answer times out and is retried', async ({ assert }) => {
    receiver.reply('hang', 'hang')
    const { dispatcher, logger } = make({
      settings: settings({ urls: [receiver.url], timeoutMs: 200, maxAttempts: 2 }),
    })
    const started = Date.now()
    await dispatcher.send('share:created', { shareId: 'f' })
    await dispatcher.idle()
    assert.isBelow(Date.now() - started, 2000)
    assert.lengthOf(receiver.received, 2)
    assert.match(logger.at('warn')[0].bindings.reason as string, /^timed out after 0.2 s$/)
    assert.match(
      logger.at('error')[0].message,
      /gave up after 2 attempt\(s\): timed out after 0.2 s/
    )
  })

  test('redirects are not followed nor retried', async ({ assert }) => {
    receiver.reply({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } })
    const { dispatcher, logger } = make({ settings: settings({ urls: [receiver.url] }) })
    await dispatcher.send('share:created', { shareId: 'g' })
    await dispatcher.idle()
    assert.lengthOf(receiver.received, 1)
    assert.match(
      logger.at('error')[0].message,
      /not retried: HTTP 302 Found \(redirects are not followed; location: http:\/\/127.0.0.1:1\/elsewhere\)/
    )
  })

  test('invalid URLs are logged and skipped, the valid ones still receive', async ({ assert }) => {
    const { dispatcher, logger } = make({
      settings: settings({ urls: ['ftp://files.test/x', 'not a url', receiver.url] }),
    })
    await dispatcher.send('share:created', { shareId: 'h' })
    await dispatcher.idle()
    assert.lengthOf(receiver.received, 1)
    assert.deepEqual(
      logger.at('warn').map((entry) => [entry.bindings.url, entry.bindings.reason]),
      [
        ['ftp://files.test/x', 'only http:// and https:// URLs are allowed'],
        ['not a url', 'not a valid URL'],
      ]
    )
  })

  test('nothing is stored nor sent while disabled, and no error is logged', async ({ assert }) => {
    const { dispatcher, logger } = make({
      settings: settings({ enabled: false, urls: [receiver.url] }),
    })
    await assert.rejects(
      () => dispatcher.send('share:created', { shareId: 'i' }),
      E_WEBHOOK_DISABLED
    )
    await dispatcher.idle()
    assert.lengthOf(await rowsOf(dispatcher), 0)
    assert.lengthOf(receiver.received, 0)
    assert.lengthOf(logger.entries, 0)
  })

  test('enabled without a usable URL refuses the event and stores nothing', async ({ assert }) => {
    const { dispatcher, logger } = make({ settings: settings({ urls: ['mailto:a@b.c'] }) })
    await assert.rejects(
      () => dispatcher.send('share:created', { shareId: 'j' }),
      E_WEBHOOK_NOT_CONFIGURED
    )
    assert.lengthOf(await rowsOf(dispatcher), 0)
    assert.match(
      logger.at('warn')[0].message,
      /Webhook URL skipped \(only http:\/\/ and https:\/\/ URLs are allowed\): mailto:a@b.c/
    )
  })

  test('the event filter is honoured and settings are read for every event', async ({ assert }) => {
    const current = { settings: settings({ urls: [receiver.url], events: ['share.completed'] }) }
    const { dispatcher } = make(current)
    await dispatcher.send('share:created', { shareId: 'k' })
    await dispatcher.send('share:completed', { shareId: 'k' })
    await dispatcher.idle()
    assert.deepEqual(
      receiver.received.map((r) => r.json.event),
      ['share.completed']
    )

    current.settings = settings({ urls: [receiver.url], events: [] })
    await dispatcher.send('share:created', { shareId: 'k' })
    await dispatcher.idle()
    assert.deepEqual(
      receiver.received.map((r) => r.json.event),
      ['share.completed', 'share.created']
    )
  })

  test('close leaves a waiting retry stored; another instance delivers it', async ({ assert }) => {
    receiver.reply(500)
    const current = { settings: settings({ urls: [receiver.url], maxAttempts: 5 }) }
    const first = make(current, { baseDelayMs: 200, maxDelayMs: 400 })
    await first.dispatcher.send('share:created', { shareId: 'l' })
    await receiver.waitFor(1)
    const started = Date.now()
    await first.dispatcher.close()
    assert.isBelow(Date.now() - started, 1000)
    const [row] = await rowsOf(first.dispatcher)
    assert.containsSubset(row, { status: 'pending', attempts: 1 })

    // A second instance handling the same channel takes the stored retry.
    const second = make(current, { baseDelayMs: 200, maxDelayMs: 400 }, first.dispatcher.channel)
    await second.dispatcher.idle()
    const [, retried] = await receiver.waitFor(2)
    assert.equal(retried.headers['x-tern-attempt'], '2')
    assert.equal(retried.json.id, row.id)
    assert.lengthOf(second.logger.at('info'), 1)
  })

  test('close aborts a request in flight (it stays stored) and refuses later events', async ({
    assert,
  }) => {
    receiver.reply('hang')
    const { dispatcher, logger } = make({
      settings: settings({ urls: [receiver.url], timeoutMs: 60_000 }),
    })
    await dispatcher.send('share:created', { shareId: 'm' })
    await receiver.waitFor(1)
    const started = Date.now()
    await dispatcher.close()
    assert.isBelow(Date.now() - started, 1000)
    await new Promise<void>((resolve) => {
      const check = () => (logger.at('warn').length > 0 ? resolve() : setTimeout(check, 10))
      check()
    })
    assert.match(
      logger.at('warn')[0].message,
      /interrupted \(shutting down\); it stays queued: cancelled/
    )

    await assert.rejects(
      () => dispatcher.send('share:created', { shareId: 'n' }),
      /the webhook dispatcher is closed/
    )
    assert.lengthOf(receiver.received, 1)
    assert.deepEqual(
      (await rowsOf(dispatcher)).map((row) => row.status),
      ['pending']
    )
  })
})

test.group('Webhook plugin | channel', (group) => {
  let receiver: WebhookReceiver
  group.each.setup(async () => {
    receiver = await startWebhookReceiver()
    return () => receiver.close()
  })

  test('the channel sends a notification as an event with its fields as data', async ({
    assert,
  }) => {
    const { dispatcher } = dispatcherWith({ settings: settings({ urls: [receiver.url] }) })
    const manager = new NotificationManager().register(
      'webhook',
      () => new WebhookChannel(dispatcher)
    )
    await manager.send('webhook', {
      type: 'reverse_share:used',
      to: [],
      subject: 'Reverse share link used',
      text: 'A file was uploaded',
      data: { reverseShareId: 'rs', shareId: 's' },
    })
    await dispatcher.idle()
    const [request] = await receiver.waitFor(1)
    assert.equal(request.headers['x-tern-event'], 'reverse_share.used')
    assert.deepEqual(request.json.data, {
      to: [],
      subject: 'Reverse share link used',
      text: 'A file was uploaded',
      data: { reverseShareId: 'rs', shareId: 's' },
    })
    await dispatcher.close()
  })

  test('the channel refuses while disabled or without a usable URL', async ({ assert }) => {
    const current = { settings: settings({ enabled: false, urls: [receiver.url] }) }
    const { dispatcher } = dispatcherWith(current)
    const channel = new WebhookChannel(dispatcher)
    const notification = { type: 'share:created', to: [], subject: 's', text: 't' }
    await assert.rejects(() => channel.send(notification), E_WEBHOOK_DISABLED)
    current.settings = settings({ urls: [] })
    await assert.rejects(() => channel.send(notification), E_WEBHOOK_NOT_CONFIGURED)

    const manager = new NotificationManager().register('webhook', () => channel)
    try {
      await manager.send('webhook', notification)
      assert.fail('expected a failure')
    } catch (error) {
      assert.instanceOf(error, notificationErrors.E_NOTIFICATION_SEND_FAILED)
      assert.instanceOf((error as Error).cause, E_WEBHOOK_NOT_CONFIGURED)
    }
    await dispatcher.close()
    assert.lengthOf(receiver.received, 0)
  })

  test('a routed event is stored once per URL and keeps the lifecycle keys', async ({ assert }) => {
    // deliver is send (which never waits for a receiver: see the dispatcher group) plus the data mapping.
    const second = await startWebhookReceiver({ path: '/second' })
    const { dispatcher } = dispatcherWith({
      settings: settings({ urls: [receiver.url, second.url] }),
    })
    const channel = new WebhookChannel(dispatcher)
    const share = {
      id: 'routed',
      name: 'Holiday',
      url: 'https://tern.test/s/routed',
      expiresAt: null,
      creatorId: 'u1',
    }
    const message = {
      event: 'share.created',
      payload: { share },
      occurredAt: '2026-01-01T00:00:00.000Z',
      eventId: '0b8f6f9e-6d1a-4a59-9d8e-0c3f5b1f2a77',
      rendered: { subject: 'Share created', text: 'Holiday was created' },
    } as NotificationMessage
    try {
      await channel.deliver(message)
      // The outbox may call deliver again (a retry after a lost answer): nothing is stored twice.
      await channel.deliver(message)
      const rows = await rowsOf(dispatcher)
      assert.sameMembers(
        rows.map((row) => row.target),
        [receiver.url, second.url]
      )
      assert.isTrue(
        rows.every((row) => row.event_id === message.eventId && row.event_type === 'share.created')
      )

      const [first] = await receiver.waitFor(1)
      const [request] = await second.waitFor(1)
      assert.equal(first.json.event, 'share.created')
      assert.equal(request.headers['x-tern-event'], 'share.created')
      assert.equal(request.json.occurredAt, message.occurredAt)
      assert.notEqual(request.json.id, first.json.id, 'one delivery id per URL')
      assert.deepEqual(request.json.data, { shareId: 'routed', creatorId: 'u1', share })
      assert.deepEqual(Object.keys(request.json), ['event', 'id', 'occurredAt', 'data', 'rendered'])
      assert.deepEqual(request.json.rendered, {
        subject: 'Share created',
        text: 'Holiday was created',
      })
      assert.deepEqual(Object.keys(request.json.data).slice(0, 2), ['shareId', 'creatorId'])
    } finally {
      await dispatcher.close()
      await second.close()
    }
  })

  test('routed data: the keys each lifecycle webhook had, then the payload; other events the payload alone', ({
    assert,
  }) => {
    const share = {
      id: 's1',
      name: null,
      url: 'https://tern.test/s/s1',
      expiresAt: null,
      creatorId: null,
      fileCount: 2,
      size: 10,
    }
    assert.deepEqual(routedData({ event: 'share.completed', payload: { share } }), {
      shareId: 's1',
      creatorId: null,
      fileCount: 2,
      size: 10,
      share,
    })
    const file = { id: 'f1', name: 'a.txt', size: 3 }
    assert.deepEqual(routedData({ event: 'share.downloaded', payload: { share, file } }), {
      shareId: 's1',
      fileId: 'f1',
      share,
      file,
    })
    assert.deepEqual(routedData({ event: 'share.downloaded', payload: { share, file: null } }), {
      shareId: 's1',
      fileId: null,
      share,
      file: null,
    })
    assert.deepEqual(routedData({ event: 'share.expired', payload: { share } }), {
      shareId: 's1',
      share,
    })
    assert.deepEqual(routedData({ event: 'share.deleted', payload: { share, by: 'owner' } }), {
      shareId: 's1',
      reason: null,
      share,
      by: 'owner',
    })
    const reverseShare = { id: 'rs', creatorId: 'u1', remainingUses: 1, expiresAt: null }
    assert.deepEqual(
      routedData({ event: 'reverse_share.used', payload: { reverseShare, share } }),
      { reverseShareId: 'rs', shareId: 's1', reverseShare, share }
    )
    const user = { id: 'u1', username: 'ann', email: 'ann@tern.test' }
    assert.deepEqual(routedData({ event: 'auth.password_reset_requested', payload: { user } }), {
      user,
    })
  })

  test('routed events are dropped while disabled, and fail for good without a usable URL', async ({
    assert,
  }) => {
    const current = { settings: settings({ enabled: false, urls: [receiver.url] }) }
    const { dispatcher } = dispatcherWith(current)
    const channel = new WebhookChannel(dispatcher)
    const message = {
      event: 'share.expired',
      payload: {
        share: {
          id: 'x',
          name: null,
          url: 'https://tern.test/s/x',
          expiresAt: null,
          creatorId: null,
        },
      },
      occurredAt: new Date().toISOString(),
      eventId: '5f2d1c8e-2b7d-4a8f-9a57-0d6c2f1e9b3b',
      rendered: { subject: 's', text: 't' },
    } as NotificationMessage
    try {
      await channel.deliver(message)
      assert.lengthOf(await rowsOf(dispatcher), 0)
      current.settings = settings({ urls: [] })
      try {
        await channel.deliver(message)
        assert.fail('expected a failure')
      } catch (error) {
        assert.instanceOf(error, NotificationDeliveryError)
        assert.isFalse((error as NotificationDeliveryError).retryable)
        assert.match((error as Error).message, /^Webhooks are not configured/)
      }
      assert.lengthOf(receiver.received, 0)
    } finally {
      await dispatcher.close()
    }
  })

  test('the channel can deliver every catalogue event, to the configured URLs only', ({
    assert,
  }) => {
    const info = notifications.describe('webhook')
    assert.deepEqual(info?.targets, { user: false, instance: true })
    assert.deepEqual(info?.events, [...NOTIFICATION_EVENTS])
  })
})
