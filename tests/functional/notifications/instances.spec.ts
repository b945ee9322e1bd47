/**
 * The outbox across real Tern processes sharing the test database: a child
 * killed with SIGKILL after answering requests that queued a webhook and a
 * mail loses neither, and the restarted instance delivers each once; two
 * children working one outbox deliver every event once per channel; a child
 * killed while it holds the claims of a mail and a webhook (fault point
 * `outbox-claimed`, app/services/files/fault_points.ts) gives them up within
 * its short lease, and an attempt slower than the lease is not taken over.
 * This process's own worker is stopped meanwhile, so only the children deliver.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import app from '@adonisjs/core/services/app'
import OutboxService from '#services/outbox/outbox_service'
import { freePort } from '#tests/helpers/test_database'
import { cleanupShareTests, newShareId, setConfig, shareUser } from '#tests/helpers/shares'
import { startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { call, startChild, type TernChild } from './tern_children.js'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  DELIVERIES_TABLE,
  resetOutbox,
  until,
  useSmtpPort,
  useWebhook,
} from '#tests/helpers/outbox'

const outbox = await app.container.make(OutboxService)

/** Children are slower than this process: 30 s at most, polled every 50 ms. */
const untilChildren = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
  until(read, done, what, { timeoutMs: 30_000, intervalMs: 50 })

const rows = () => db.from(DELIVERIES_TABLE).orderBy('created_at')
/** A routed webhook event is one row handed to the channel (target ''), then one row per URL. */
const ROWS_PER_WEBHOOK = 2
const allDelivered = (count: number) => (list: any[]) =>
  list.length === count && list.every((row) => row.status === 'delivered')

test.group('Notifications | outbox across instances', (group) => {
  group.teardown(cleanCommittedData)
  let children: TernChild[] = []
  let smtp: TestSmtpServer | undefined
  let receiver: WebhookReceiver | undefined

  group.setup(async () => {
    await outbox.worker.stop()
    outbox.startOnDemand = false
    return () => {
      outbox.startOnDemand = true
    }
  })
  group.each.teardown(async () => {
    await Promise.all(children.map((child) => child.kill()))
    children = []
    await smtp?.close()
    await receiver?.close()
    smtp = receiver = undefined
    await resetOutbox()
    await cleanupShareTests()
  })

  const child = async (env: Record<string, string> = {}) => {
    const started = await startChild(env)
    children.push(started)
    return started
  }

  test('kill -9 during a webhook attempt and with a mail waiting: the restarted instance delivers each once', async ({
    assert,
  }) => {
    receiver = await startWebhookReceiver()
    receiver.reply('hang')
    await useWebhook(receiver.url, 'instances-secret')
    await useSmtpPort(await freePort())
    // Reset links are mailed only to a confirmed public address (#services/auth/password_reset_service).
    await setConfig('general.appUrl', 'https://tern.example.com')
    const owner = await shareUser({ email: 'crash@example.com' })
    // The first instance would retry only after 5 s or more: it is killed long before. Its claim
    // of the hanging webhook is renewed while it lives, and free again 3 s after the kill at most.
    const first = await child({
      OUTBOX_LEASE_MS: '3000',
      WEBHOOK_RETRY_BASE_DELAY_MS: '10000',
      OUTBOX_RETRY_BASE_DELAY_MS: '10000',
    })

    const shareId = newShareId()
    assert.equal(
      (await call(first, 'POST', '/api/shares', owner.cookie, { id: shareId, expiration: 'never' }))
        .status,
      201
    )
    const stored = await rows()
    assert.deepEqual(
      [...new Set(stored.map((row) => row.event_type))],
      ['share.created'],
      'stored before the answer'
    )
    assert.equal(
      (await call(first, 'POST', '/api/auth/resetPassword/crash@example.com')).status,
      202
    )
    assert.include(
      (await rows()).map((row) => row.channel),
      'password_reset',
      'the reset request is stored before the answer'
    )

    await receiver.waitFor(1, 15_000)
    const waiting = (row: any) =>
      row && Number(row.attempts) >= 1 && row.locked_until === null && row.status === 'pending'
    await untilChildren(
      rows,
      (list) => waiting(list.find((row) => row.channel === 'email')),
      'a failed mail attempt waiting for a retry'
    )
    await first.kill()

    smtp = await startSmtpServer()
    await useSmtpPort(smtp.port)
    await child()
    // The webhook, the reset request and the mail it made.
    const delivered = await untilChildren(
      rows,
      allDelivered(ROWS_PER_WEBHOOK + 2),
      'every delivery delivered'
    )

    const answered = receiver.received.filter((request) => request.reply === 200)
    assert.lengthOf(receiver.received, 2)
    assert.lengthOf(answered, 1)
    assert.equal(answered[0].json.data.shareId, shareId)
    assert.equal(
      answered[0].headers['x-tern-attempt'],
      '2',
      JSON.stringify(delivered.map((row) => [row.channel, row.attempts, row.last_error]))
    )
    assert.equal(answered[0].json.id, receiver.received[0].json.id, 'the same delivery, taken over')
    assert.lengthOf(smtp.messages, 1)
    assert.include((smtp.messages[0].to as any).text, 'crash@example.com')
    assert.isTrue(delivered.every((row) => row.payload === null))
  }).timeout(90_000)

  test('two instances working one outbox deliver every event once per channel', async ({
    assert,
  }) => {
    receiver = await startWebhookReceiver()
    smtp = await startSmtpServer()
    await useWebhook(receiver.url, 'instances-secret')
    await useSmtpPort(smtp.port)
    await setConfig('general.appUrl', 'https://tern.example.com')
    const instances = await Promise.all([child(), child()])
    const owner = await shareUser()
    const users = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) => shareUser({ email: `both-${n}@example.com` }))
    )

    const shareIds = Array.from({ length: 20 }, () => newShareId())
    const created = await Promise.all(
      shareIds.map((id, n) =>
        call(instances[n % 2], 'POST', '/api/shares', owner.cookie, { id, expiration: 'never' })
      )
    )
    assert.deepEqual(
      created.map((response) => response.status),
      Array(20).fill(201)
    )
    const resets = await Promise.all(
      users.map(({ user }, n) =>
        call(instances[n % 2], 'POST', `/api/auth/resetPassword/${user.email}`)
      )
    )
    assert.deepEqual(
      resets.map((response) => response.status),
      Array(6).fill(202)
    )

    // 20 webhooks, 6 reset requests and their 6 mails.
    const total = 20 * ROWS_PER_WEBHOOK + 12
    const delivered = await untilChildren(
      rows,
      allDelivered(total),
      `${total} deliveries delivered`
    )
    assert.lengthOf(receiver.received, 20, 'each webhook once')
    assert.sameMembers(
      receiver.received.map((request) => request.json.data.shareId),
      shareIds
    )
    assert.lengthOf(new Set(receiver.received.map((request) => request.json.id)), 20)
    assert.lengthOf(smtp.messages, 6, 'each mail once')
    assert.sameMembers(
      smtp.messages.map((mail) => (mail.to as any).text),
      users.map(({ user }) => user.email)
    )
    assert.lengthOf(delivered, total)
  }).timeout(90_000)
})

test.group('Notifications | outbox claims of killed and slow instances', (group) => {
  group.teardown(cleanCommittedData)
  let children: TernChild[] = []
  let smtp: TestSmtpServer | undefined
  let receiver: WebhookReceiver | undefined
  let faultDir = ''

  group.setup(async () => {
    await outbox.worker.stop()
    outbox.startOnDemand = false
    faultDir = await mkdtemp(join(tmpdir(), 'tern-outbox-fault-'))
    return async () => {
      outbox.startOnDemand = true
      await rm(faultDir, { recursive: true, force: true })
    }
  })
  group.each.teardown(async () => {
    await Promise.all(children.map((running) => running.kill()))
    children = []
    await smtp?.close()
    await receiver?.close()
    smtp = receiver = undefined
    await resetOutbox()
    await cleanupShareTests()
  })

  const child = async (env: Record<string, string> = {}) => {
    const started = await startChild(env)
    children.push(started)
    return started
  }

  test('kill -9 while holding the claims of a mail and a webhook: the restarted instance sends each once, within 30 s', async ({
    assert,
  }) => {
    receiver = await startWebhookReceiver()
    smtp = await startSmtpServer()
    await useWebhook(receiver.url, 'claims-secret')
    await useSmtpPort(smtp.port)
    // Reset links are mailed only once the public address is confirmed.
    await setConfig('general.appUrl', 'https://tern.example.com')
    const owner = await shareUser({ email: 'held@example.com' })
    // Every attempt of the webhook's requests and of the mails stops right after its claim, before
    // anything is sent. A lease of 2 s (default 15 s) keeps the test short.
    const lease = { OUTBOX_LEASE_MS: '2000' }
    const faultFile = join(faultDir, 'held')
    await writeFile(faultFile, 'outbox-claimed webhook:http\noutbox-claimed email:\n')
    const first = await child({ ...lease, NODE_ENV: 'test', TERN_FAULT_POINT_FILE: faultFile })

    const shareId = newShareId()
    assert.equal(
      (await call(first, 'POST', '/api/shares', owner.cookie, { id: shareId, expiration: 'never' }))
        .status,
      201
    )
    assert.equal(
      (await call(first, 'POST', '/api/auth/resetPassword/held@example.com')).status,
      202
    )
    await untilChildren(
      async () => first.output(),
      (output) =>
        /REACHED outbox-claimed webhook:http/.test(output) &&
        /REACHED outbox-claimed email:/.test(output),
      'the child to hold the claims of the webhook request and of the mail'
    )
    // Held longer than a lease: the claims were renewed while the instance lived.
    const held = await untilChildren(
      () => rows().whereIn('channel', ['webhook', 'email']).whereNot('target', ''),
      (list) =>
        list.length === 2 &&
        list.every((row) => Number(row.locked_until) - Number(row.updated_at) > 2000),
      'both claims renewed'
    )
    assert.isTrue(held.every((row) => row.status === 'pending' && Number(row.attempts) === 1))
    await first.kill()
    assert.lengthOf(receiver.received, 0, 'nothing was sent before the kill')
    assert.lengthOf(smtp.messages, 0)

    const restartedAt = Date.now()
    await child(lease)
    // The webhook (routed event and request), the reset request and its mail.
    const delivered = await untilChildren(
      rows,
      allDelivered(ROWS_PER_WEBHOOK + 2),
      'every delivery delivered'
    )
    const sent = delivered.filter(
      (row) => ['webhook', 'email'].includes(row.channel) && row.target !== ''
    )
    const latest = Math.max(...sent.map((row) => Number(row.delivered_at)))
    assert.isBelow(
      latest - restartedAt,
      30_000,
      `delivered ${latest - restartedAt} ms after the restart`
    )
    assert.lengthOf(receiver.received, 1, 'the webhook once')
    assert.equal(receiver.received[0].json.data.shareId, shareId)
    assert.equal(
      receiver.received[0].headers['x-tern-attempt'],
      '2',
      'the claim of the killed instance was taken over'
    )
    assert.lengthOf(smtp.messages, 1, 'the mail once')
    assert.include((smtp.messages[0].to as any).text, 'held@example.com')
    assert.deepEqual(
      sent.map((row) => Number(row.attempts)),
      [2, 2]
    )
  }).timeout(90_000)

  test('an attempt slower than the lease is neither cut nor taken over by another instance', async ({
    assert,
  }) => {
    receiver = await startWebhookReceiver()
    // Three leases long; the webhook's own limit (webhook.timeout, 10 s) is not reached.
    receiver.reply({ status: 200, delayMs: 4500 })
    await useWebhook(receiver.url, 'claims-secret')
    const owner = await shareUser()
    const lease = { OUTBOX_LEASE_MS: '1500', WEBHOOK_RETRY_BASE_DELAY_MS: '100' }
    const [first] = await Promise.all([child(lease), child(lease)])

    const shareId = newShareId()
    assert.equal(
      (await call(first, 'POST', '/api/shares', owner.cookie, { id: shareId, expiration: 'never' }))
        .status,
      201
    )
    const delivered = await untilChildren(
      rows,
      allDelivered(ROWS_PER_WEBHOOK),
      'the slow webhook delivered'
    )
    assert.lengthOf(
      receiver.received,
      1,
      'one request: no second instance sent it meanwhile, no retry'
    )
    const request = delivered.find((row) => row.target !== '')
    assert.equal(Number(request.attempts), 1)
    assert.isAtLeast(
      Number(request.delivered_at) - receiver.received[0].receivedAt,
      4000,
      'the answer was waited for'
    )
  }).timeout(90_000)
})
