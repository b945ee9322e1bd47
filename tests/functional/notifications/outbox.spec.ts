/**
 * The notification outbox in one process, through the real API: a mail
 * queued while the SMTP server is down is delivered once it is back; a
 * delivery that fails for good is listed for admins (without secrets) and
 * can be retried or discarded.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ConfigService from '#services/config/config_service'
import MailService from '#services/mail/mail_service'
import OutboxService from '#services/outbox/outbox_service'
import { freePort } from '#tests/helpers/test_database'
import {
  api,
  cleanupShareTests,
  createShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { completedReverseShareUpload, createReverseShare } from '#tests/helpers/reverse_shares'
import { startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  DELIVERIES_TABLE,
  resetOutbox,
  until,
  useSmtpPort,
  useWebhook,
} from '#tests/helpers/outbox'

const outbox = await app.container.make(OutboxService)

const mailService = await app.container.make(MailService)

const configService = await app.container.make(ConfigService)

const SECRET = 'outbox-test-signing-secret'

const rowsOf = (channel: string) =>
  db.from(DELIVERIES_TABLE).where('channel', channel).orderBy('created_at')
/** The webhook requests (rows per URL), not the routed events they were fanned out from (target ''). */
const webhookRequests = () => rowsOf('webhook').whereNot('target', '')

test.group('Notifications | outbox', (group) => {
  group.teardown(cleanCommittedData)
  let smtp: TestSmtpServer | undefined
  let receiver: WebhookReceiver | undefined

  group.each.teardown(async () => {
    await smtp?.close()
    await receiver?.close()
    smtp = receiver = undefined
    await resetOutbox()
    await cleanupShareTests()
  })

  test('a mail queued while the SMTP server is down is delivered once it is back', async ({
    assert,
  }) => {
    const downPort = await freePort()
    await useSmtpPort(downPort)
    // Reset links are mailed only to a confirmed public address (#services/auth/password_reset_service).
    await setConfig('general.appUrl', 'https://tern.example.com')
    const { user } = await shareUser({ email: 'outage@example.com' })
    const response = await api('POST', '/api/auth/resetPassword/outage@example.com')
    assert.equal(response.status, 202)

    const [failing] = await until(
      () => rowsOf('email'),
      (rows) => rows[0]?.attempts >= 2,
      'two failed attempts'
    )
    assert.equal(failing.status, 'pending')
    assert.match(failing.last_error, /ECONNREFUSED/)
    assert.equal(failing.target, user.email)

    smtp = await startSmtpServer()
    await configService.update([{ key: 'smtp.port', value: smtp.port }])
    const mail = await smtp.waitForMessage(() => true, 10_000)
    await mailService.idle()

    assert.lengthOf(smtp.messages, 1)
    assert.include((mail.to as any).text, 'outage@example.com')
    assert.match(String(mail.text), /\/auth\/resetPassword\/[A-Za-z0-9_-]+/)
    const [delivered] = await rowsOf('email')
    assert.containsSubset(delivered, { status: 'delivered', payload: null })
    assert.isAbove(Number(delivered.attempts), 2)
  }).timeout(30_000)

  test('a delivery that fails for good is listed for admins, retried and discarded', async ({
    assert,
  }) => {
    receiver = await startWebhookReceiver()
    receiver.reply({ status: 400, body: `bad signature for key ${SECRET}` }, 410)
    const admin = await shareUser({ admin: true })
    await useWebhook(`${receiver.url}?token=query-secret-123`, SECRET)
    const owner = await shareUser()
    const kept = await createShare(owner.cookie, { id: newShareId() })
    await until(
      () => webhookRequests(),
      (rows) => rows.length === 1 && rows[0].status === 'failed',
      'a failed row'
    )
    await createShare(owner.cookie, { id: newShareId() })
    const dispatcher = await app.container.make('webhook.dispatcher')
    await dispatcher.idle()

    const listed = await api('GET', '/api/notifications/deliveries', { cookie: admin.cookie })
    assert.equal(listed.status, 200)
    assert.lengthOf(listed.json, 2)
    const first = listed.json.find((row: any) => row.lastError.startsWith('HTTP 400'))
    assert.containsSubset(first, {
      channel: 'webhook',
      eventType: 'share.created',
      status: 'failed',
      attempts: 1,
    })
    assert.equal(first.lastError, 'HTTP 400 Bad Request: bad signature for key [redacted]')
    assert.equal(first.target, `${receiver.url}?[redacted]`)
    assert.notInclude(listed.bytes.toString(), SECRET)
    assert.notInclude(listed.bytes.toString(), 'query-secret-123')
    assert.notProperty(first, 'payload')

    assert.equal(
      (await api('GET', '/api/notifications/deliveries', { cookie: owner.cookie })).status,
      403
    )
    assert.equal((await api('GET', '/api/notifications/deliveries')).status, 401)
    const badStatus = await api('GET', '/api/notifications/deliveries?status=lost', {
      cookie: admin.cookie,
    })
    assert.equal(badStatus.status, 400)
    assert.match(badStatus.json.message, /Unknown delivery status "lost"/)

    // Retry: the receiver now accepts; the same delivery id arrives again and is delivered.
    const retried = await api('POST', `/api/notifications/deliveries/${first.id}/retry`, {
      cookie: admin.cookie,
    })
    assert.equal(retried.status, 200)
    assert.containsSubset(retried.json, { id: first.id, status: 'pending', attempts: 0 })
    await dispatcher.idle()
    const again = receiver.received.filter((request) => request.json.id === first.id)
    assert.lengthOf(again, 2)
    assert.equal(again[1].json.data.shareId, kept.json.id)
    const again409 = await api('POST', `/api/notifications/deliveries/${first.id}/retry`, {
      cookie: admin.cookie,
    })
    assert.equal(again409.status, 409)
    assert.match(again409.json.message, /this one is delivered/)

    // Discard the other one.
    const [second] = (await api('GET', '/api/notifications/deliveries', { cookie: admin.cookie }))
      .json
    assert.notEqual(second.id, first.id)
    const discarded = await api('DELETE', `/api/notifications/deliveries/${second.id}`, {
      cookie: admin.cookie,
    })
    assert.equal(discarded.status, 204)
    const gone = await api('DELETE', `/api/notifications/deliveries/${second.id}`, {
      cookie: admin.cookie,
    })
    assert.equal(gone.status, 404)
    assert.deepEqual(gone.json.error, 'Not Found')
    assert.equal(
      (await api('DELETE', '/api/notifications/deliveries/not-a-uuid', { cookie: admin.cookie }))
        .status,
      404
    )
    const after = await api('GET', '/api/notifications/deliveries', { cookie: admin.cookie })
    assert.deepEqual(after.json, [])
  }).timeout(30_000)

  test('a reverse-share owner who is also a recipient gets both mails, each once', async ({
    assert,
  }) => {
    smtp = await startSmtpServer()
    for (const [key, value] of [
      ['smtp.enabled', 'true'],
      ['smtp.host', '127.0.0.1'],
      ['smtp.port', String(smtp.port)],
      ['smtp.email', 'noreply@tern.test'],
      ['email.enableShareEmailRecipients', 'true'],
    ]) {
      await setConfig(key, value)
    }
    const owner = await shareUser({ email: 'both-roles@example.com' })
    const { token } = await createReverseShare(owner.cookie, { sendEmailNotification: true })
    const upload = await completedReverseShareUpload(
      token,
      { 'a.txt': 'a' },
      {
        body: { recipients: ['both-roles@example.com'] },
      }
    )
    assert.equal(upload.completed.status, 202)
    await mailService.idle()
    assert.lengthOf(smtp.messages, 2)
    const rows = await rowsOf('email')
    assert.sameMembers(
      rows.map((row) => row.event_type),
      ['share:recipient', 'reverse_share:used']
    )
  })

  test('an event is stored once per channel and target, however often it is queued', async ({
    assert,
  }) => {
    const input = {
      eventId: 'share:dup:completed',
      eventType: 'share:completed',
      channel: 'dedupe-lane',
      payload: {},
    }
    const first = await outbox.enqueue({ ...input, target: 'a@example.com' })
    const repeated = await outbox.enqueue({ ...input, target: 'a@example.com' })
    const other = await outbox.enqueue({ ...input, target: 'b@example.com' })
    assert.isString(first)
    assert.isNull(repeated)
    assert.isString(other)
    assert.lengthOf(await rowsOf('dedupe-lane'), 2)
  })

  test('a delivery that hangs does not hold deliveries stored after it', async ({
    assert,
    cleanup,
  }) => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let hanging = false
    const delivered: string[] = []
    cleanup(
      outbox.handle('hang-lane', {
        deliver: async () => {
          hanging = true
          await released
          delivered.push('slow')
        },
      })
    )
    cleanup(
      outbox.handle('quick-lane', {
        deliver: async (delivery) => void delivered.push(delivery.eventId),
      })
    )
    cleanup(() => release())

    await outbox.enqueue({
      eventId: 'hang:1',
      eventType: 'share:completed',
      channel: 'hang-lane',
      payload: {},
    })
    await until(async () => hanging, Boolean, 'the first attempt to start')
    await outbox.enqueue({
      eventId: 'quick:1',
      eventType: 'share:completed',
      channel: 'quick-lane',
      payload: {},
    })
    await until(
      async () => delivered,
      (list) => list.includes('quick:1'),
      'the later delivery'
    )
    assert.deepEqual(delivered, ['quick:1'])

    release()
    await until(
      async () => delivered,
      (list) => list.includes('slow'),
      'the hanging delivery once released'
    )
    await outbox.worker.settled()
    const statuses = await db
      .from(DELIVERIES_TABLE)
      .whereIn('channel', ['hang-lane', 'quick-lane'])
      .select('status')
    assert.deepEqual(
      statuses.map((row) => row.status),
      ['delivered', 'delivered']
    )
  })
})
