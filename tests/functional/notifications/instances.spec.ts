/**
 * The outbox across real Tern processes sharing the test database: a child
 * killed with SIGKILL after answering requests that queued a webhook and a
 * mail loses neither, and the restarted instance delivers each once; two
 * children working one outbox deliver every event once per channel. This
 * process's own worker is stopped meanwhile, so only the children deliver.
 */
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
import { DELIVERIES_TABLE, resetOutbox, until, useSmtpPort, useWebhook } from '#tests/helpers/outbox'

const outbox = await app.container.make(OutboxService)

/** Children are slower than this process: 30 s at most, polled every 50 ms. */
const untilChildren = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
  until(read, done, what, { timeoutMs: 30_000, intervalMs: 50 })

const rows = () => db.from(DELIVERIES_TABLE).orderBy('created_at')
/** A routed webhook event is one row handed to the channel (target ''), then one row per URL. */
const ROWS_PER_WEBHOOK = 2
const allDelivered = (count: number) => (list: any[]) => list.length === count && list.every((row) => row.status === 'delivered')

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

  test('kill -9 during a webhook attempt and with a mail waiting: the restarted instance delivers each once', async ({ assert }) => {
    receiver = await startWebhookReceiver()
    receiver.reply('hang')
    await useWebhook(receiver.url, 'instances-secret')
    await useSmtpPort(await freePort())
    // Reset links are mailed only to a confirmed public address (#services/auth/password_reset_service).
    await setConfig('general.appUrl', 'https://tern.example.com')
    const owner = await shareUser({ email: 'crash@example.com' })
    // The first instance would retry only after 5 s or more: it is killed long before. Its claim
    // of the hanging webhook lasts 3 s (the attempt is cut after 2 s), then the row is free again.
    const first = await child({ OUTBOX_LEASE_MS: '3000', WEBHOOK_RETRY_BASE_DELAY_MS: '10000', OUTBOX_RETRY_BASE_DELAY_MS: '10000' })

    const shareId = newShareId()
    assert.equal((await call(first, 'POST', '/api/shares', owner.cookie, { id: shareId, expiration: 'never' })).status, 201)
    const stored = await rows()
    assert.deepEqual([...new Set(stored.map((row) => row.event_type))], ['share.created'], 'stored before the answer')
    assert.equal((await call(first, 'POST', '/api/auth/resetPassword/crash@example.com')).status, 202)
    assert.include((await rows()).map((row) => row.channel), 'password_reset', 'the reset request is stored before the answer')

    await receiver.waitFor(1, 15_000)
    const waiting = (row: any) => row && Number(row.attempts) >= 1 && row.locked_until === null && row.status === 'pending'
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
    const delivered = await untilChildren(rows, allDelivered(ROWS_PER_WEBHOOK + 2), 'every delivery delivered')

    const answered = receiver.received.filter((request) => request.reply === 200)
    assert.lengthOf(receiver.received, 2)
    assert.lengthOf(answered, 1)
    assert.equal(answered[0].json.data.shareId, shareId)
    assert.equal(answered[0].headers['x-tern-attempt'], '2', JSON.stringify(delivered.map((row) => [row.channel, row.attempts, row.last_error])))
    assert.equal(answered[0].json.id, receiver.received[0].json.id, 'the same delivery, taken over')
    assert.lengthOf(smtp.messages, 1)
    assert.include((smtp.messages[0].to as any).text, 'crash@example.com')
    assert.isTrue(delivered.every((row) => row.payload === null))
  }).timeout(90_000)

  test('two instances working one outbox deliver every event once per channel', async ({ assert }) => {
    receiver = await startWebhookReceiver()
    smtp = await startSmtpServer()
    await useWebhook(receiver.url, 'instances-secret')
    await useSmtpPort(smtp.port)
    await setConfig('general.appUrl', 'https://tern.example.com')
    const instances = await Promise.all([child(), child()])
    const owner = await shareUser()
    const users = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => shareUser({ email: `both-${n}@example.com` })))

    const shareIds = Array.from({ length: 20 }, () => newShareId())
    const created = await Promise.all(
      shareIds.map((id, n) => call(instances[n % 2], 'POST', '/api/shares', owner.cookie, { id, expiration: 'never' }))
    )
    assert.deepEqual(created.map((response) => response.status), Array(20).fill(201))
    const resets = await Promise.all(
      users.map(({ user }, n) => call(instances[n % 2], 'POST', `/api/auth/resetPassword/${user.email}`))
    )
    assert.deepEqual(resets.map((response) => response.status), Array(6).fill(202))

    // 20 webhooks, 6 reset requests and their 6 mails.
    const total = 20 * ROWS_PER_WEBHOOK + 12
    const delivered = await untilChildren(rows, allDelivered(total), `${total} deliveries delivered`)
    assert.lengthOf(receiver.received, 20, 'each webhook once')
    assert.sameMembers(receiver.received.map((request) => request.json.data.shareId), shareIds)
    assert.lengthOf(new Set(receiver.received.map((request) => request.json.id)), 20)
    assert.lengthOf(smtp.messages, 6, 'each mail once')
    assert.sameMembers(
      smtp.messages.map((mail) => (mail.to as any).text),
      users.map(({ user }) => user.email)
    )
    assert.lengthOf(delivered, total)
  }).timeout(90_000)
})
