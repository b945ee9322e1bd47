import { test } from '@japa/runner'
import { createServer } from 'node:net'
import { configRegistry } from '#extensions/config/registry'
import { checkValue } from '#extensions/config/values'
import {
  NotificationDeliveryError,
  notifications,
  type NotificationMessage,
} from '#extensions/notifications/main'
import { NtfyChannel } from '../../src/ntfy_channel.js'
import { headerText, MAX_BODY_BYTES, truncateUtf8 } from '../../src/publish.js'
import {
  checkServerUrl,
  ntfyConfigCategory,
  ntfySettingsFrom,
  type NtfySettings,
} from '../../src/settings.js'
import { startFakeNtfy, type FakeNtfy } from '../fake_ntfy.js'

const SHARE = {
  id: 'holiday',
  name: 'Holiday photos',
  url: 'https://tern.test/s/holiday',
  expiresAt: null,
  creatorId: 'u1',
}

/** A routed message as the core builds it. */
function downloaded(overrides: Partial<NotificationMessage> = {}): NotificationMessage {
  return {
    event: 'share.downloaded',
    payload: { share: SHARE, file: null },
    occurredAt: '2026-01-01T00:00:00.000Z',
    eventId: '4f0c2a8e-1b7d-4a8f-9a57-0d6c2f1e9b3a',
    rendered: {
      subject: 'Your share “Holiday photos” was downloaded',
      text: 'Someone downloaded all files of Holiday photos.',
    },
    ...overrides,
  } as NotificationMessage
}

/** Rejection of `action` as a `NotificationDeliveryError`. */
async function failure(action: () => Promise<unknown>): Promise<NotificationDeliveryError> {
  try {
    await action()
  } catch (error) {
    if (error instanceof NotificationDeliveryError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

test.group('ntfy plugin | channel against an ntfy-like server', (group) => {
  let ntfy: FakeNtfy
  let current: NtfySettings
  let channel: NtfyChannel
  group.each.setup(async () => {
    ntfy = await startFakeNtfy()
    current = { server: ntfy.url, topic: 'tern-alerts', token: '', priority: 3 }
    channel = new NtfyChannel({
      settings: async () => current,
      userAgent: 'Tern-ntfy/9.9.9',
      timeoutMs: 2000,
    })
    return async () => {
      await channel.close()
      await ntfy.close()
    }
  })

  test('publishes the rendered texts to the topic with title, tags, priority and the share as click URL', async ({
    assert,
  }) => {
    await channel.deliver(downloaded())
    const [published] = await ntfy.waitFor(1)
    assert.equal(published.method, 'POST')
    assert.equal(published.topic, 'tern-alerts')
    assert.equal(published.status, 200)
    assert.equal(published.message, 'Someone downloaded all files of Holiday photos.')
    assert.equal(
      published.title,
      'Your share “Holiday photos” was downloaded',
      'non-ASCII titles arrive decoded'
    )
    assert.match(published.headers.title as string, /^=\?UTF-8\?B\?/)
    assert.deepEqual(published.tags, ['inbox_tray', 'share.downloaded'])
    assert.equal(published.priority, 3)
    assert.equal(published.click, 'https://tern.test/s/holiday')
    assert.equal(published.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(published.headers['user-agent'], 'Tern-ntfy/9.9.9')
    assert.notProperty(published.headers, 'authorization')
    assert.equal(published.headers['x-tern-event-id'], '4f0c2a8e-1b7d-4a8f-9a57-0d6c2f1e9b3a')
  })

  test('sends the access token as a bearer token, and the settings of the moment', async ({
    assert,
  }) => {
    ntfy.requireToken('tk_secret')
    const refused = await failure(() => channel.deliver(downloaded()))
    assert.isFalse(refused.retryable, 'a missing token will not fix itself')
    assert.equal(refused.message, 'ntfy: HTTP 401: unauthorized')

    current = { ...current, token: 'tk_secret', priority: 5, topic: 'other_topic' }
    await channel.deliver(downloaded())
    const [, published] = await ntfy.waitFor(2)
    assert.equal(published.headers.authorization, 'Bearer tk_secret')
    assert.equal(published.priority, 5)
    assert.equal(published.topic, 'other_topic')

    current = { ...current, token: 'tk_wrong' }
    const forbidden = await failure(() => channel.deliver(downloaded()))
    assert.equal(forbidden.message, 'ntfy: HTTP 403: forbidden')
    assert.notInclude(forbidden.message, 'tk_wrong')
  })

  test('an event without a share page has no click URL; a server under a path is honoured', async ({
    assert,
  }) => {
    current = { ...current, server: `${ntfy.url}/ntfy` }
    await channel.deliver(
      downloaded({
        event: 'auth.new_device_sign_in',
        payload: {
          user: { id: 'u1', username: 'ann', email: 'ann@tern.test' },
          device: 'Firefox',
          ip: '10.0.0.1',
          signedInAt: '2026-01-01T00:00:00.000Z',
        },
        rendered: { subject: 'New sign-in', text: 'ann signed in from Firefox.' },
      })
    )
    const [published] = await ntfy.waitFor(1)
    assert.equal(published.topic, 'ntfy/tern-alerts')
    assert.equal(published.headers.title, 'New sign-in', 'ASCII titles are sent as they are')
    assert.deepEqual(published.tags, ['warning', 'auth.new_device_sign_in'])
    assert.isUndefined(published.click)
  })

  test('429 and 5xx answers are retryable, with the server Retry-After', async ({ assert }) => {
    ntfy.reply({ status: 429, headers: { 'retry-after': '7' } }, 502)
    const limited = await failure(() => channel.deliver(downloaded()))
    assert.isTrue(limited.retryable)
    assert.equal(limited.retryAfterMs, 7000)
    assert.equal(limited.message, 'ntfy: HTTP 429: limit reached: too many requests')
    const broken = await failure(() => channel.deliver(downloaded()))
    assert.isTrue(broken.retryable)
    assert.isNull(broken.retryAfterMs)
    await channel.deliver(downloaded())
    assert.deepEqual(
      ntfy.received.map((entry) => entry.status),
      [429, 502, 200]
    )
  })

  test('network errors and timeouts are retryable', async ({ assert }) => {
    current = { ...current, server: `http://127.0.0.1:${await closedPort()}` }
    const refused = await failure(() => channel.deliver(downloaded()))
    assert.isTrue(refused.retryable)
    assert.match(refused.message, /^ntfy: fetch failed \(ECONNREFUSED\)$/)

    current = { ...current, server: ntfy.url }
    ntfy.reply('hang')
    const slow = new NtfyChannel({ settings: async () => current, userAgent: 'x', timeoutMs: 200 })
    const started = Date.now()
    const timedOut = await failure(() => slow.deliver(downloaded()))
    assert.isBelow(Date.now() - started, 2000)
    assert.isTrue(timedOut.retryable)
    assert.equal(timedOut.message, 'ntfy: timed out after 0.2 s')
  })

  test('without a topic nothing is sent and the failure is final', async ({ assert }) => {
    current = { ...current, topic: '' }
    const error = await failure(() => channel.deliver(downloaded()))
    assert.isFalse(error.retryable)
    assert.match(error.message, /ntfy is not configured: set the topic/)
    assert.lengthOf(ntfy.received, 0)
  })

  test('close aborts a publication in flight; later ones are refused as retryable', async ({
    assert,
  }) => {
    ntfy.reply('hang')
    const pending = failure(() => channel.deliver(downloaded()))
    await ntfy.waitFor(1)
    await channel.close()
    await channel.close()
    assert.isTrue((await pending).retryable)
    const after = await failure(() => channel.deliver(downloaded()))
    assert.isTrue(after.retryable)
    assert.lengthOf(ntfy.received, 1)
  })

  test('send publishes a notification the core addresses itself', async ({ assert }) => {
    await channel.send({
      type: 'share:created',
      to: ['x@tern.test'],
      subject: 'Subject',
      text: 'Body',
    })
    const [published] = await ntfy.waitFor(1)
    assert.equal(published.title, 'Subject')
    assert.equal(published.message, 'Body')
    assert.deepEqual(published.tags, [])
  })

  test('a long body is cut below the ntfy message limit, never inside a character', async ({
    assert,
  }) => {
    await channel.deliver(downloaded({ rendered: { subject: 's', text: 'é'.repeat(5000) } }))
    const [published] = await ntfy.waitFor(1)
    assert.isAtMost(Buffer.byteLength(published.message), MAX_BODY_BYTES)
    assert.isTrue(published.message.endsWith('é…'))
  })
})

test.group('ntfy plugin | settings and helpers', () => {
  const variable = (key: string) => ntfyConfigCategory.variables.find((item) => item.key === key)!

  test('the category declares the documented keys, the token obscured, nothing public', ({
    assert,
  }) => {
    assert.deepEqual(
      ntfyConfigCategory.variables.map((item) => [item.key, item.type, item.defaultValue]),
      [
        ['ntfy.server', 'string', 'https://ntfy.sh'],
        ['ntfy.topic', 'string', ''],
        ['ntfy.token', 'string', ''],
        ['ntfy.priority', 'number', '3'],
      ]
    )
    assert.isTrue(variable('ntfy.token').obscured)
    assert.isFalse(ntfyConfigCategory.variables.some((item) => item.public))
  })

  test('the enabled plugin registered its category and a routable channel for every event, instance only', ({
    assert,
  }) => {
    assert.equal(
      configRegistry.category('ntfy')?.source,
      'ntfy',
      'the test runner enables the ntfy plugin'
    )
    const info = notifications.describe('ntfy')
    assert.deepEqual(info?.targets, { user: false, instance: true })
    assert.lengthOf(info!.events, 11)
  })

  test('admin changes are validated: server URL, topic name, priority', ({ assert }) => {
    const rules = (key: string) => ({
      key,
      type: variable(key).type,
      validation: variable(key).validation,
    })
    assert.isTrue(checkValue(rules('ntfy.server'), 'https://ntfy.example.com/sub').ok)
    const refused = checkValue(rules('ntfy.server'), 'ftp://ntfy.example.com')
    assert.equal(
      !refused.ok && refused.message,
      'The ntfy server URL is refused (only http:// and https:// URLs are allowed): ftp://ntfy.example.com'
    )
    assert.isFalse(checkValue(rules('ntfy.server'), 'https://ntfy.sh/?x=1').ok)
    assert.equal(
      checkServerUrl('https://u:p@ntfy.sh'),
      'credentials in the URL are not allowed: use the access token'
    )
    assert.isTrue(checkValue(rules('ntfy.topic'), 'tern_Alerts-42').ok)
    assert.isTrue(checkValue(rules('ntfy.topic'), '').ok)
    const topic = checkValue(rules('ntfy.topic'), 'with/slash')
    assert.equal(
      !topic.ok && topic.message,
      'The ntfy topic may only hold 1 to 64 letters, digits, "-" and "_"'
    )
    assert.isFalse(checkValue(rules('ntfy.priority'), 0).ok)
    assert.isFalse(checkValue(rules('ntfy.priority'), 6).ok)
    assert.isTrue(checkValue(rules('ntfy.priority'), 5).ok)
  })

  test('settings are trimmed, the server without trailing slashes', ({ assert }) => {
    assert.deepEqual(
      ntfySettingsFrom({
        'ntfy.server': ' https://ntfy.example.com/ntfy// ',
        'ntfy.topic': ' alerts ',
        'ntfy.token': 'tk',
        'ntfy.priority': 4,
      }),
      { server: 'https://ntfy.example.com/ntfy', topic: 'alerts', token: 'tk', priority: 4 }
    )
  })

  test('header text: ASCII kept, line breaks flattened, anything else RFC 2047', ({ assert }) => {
    assert.equal(headerText('Share\r\ncreated '), 'Share created')
    assert.equal(
      headerText('Téléchargé'),
      `=?UTF-8?B?${Buffer.from('Téléchargé').toString('base64')}?=`
    )
    assert.equal(truncateUtf8('short'), 'short')
  })
})
