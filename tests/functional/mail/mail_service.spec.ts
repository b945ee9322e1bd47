import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { notifications } from '#extensions/notifications/main'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import MailService, {
  MailDeliveryException,
  MailDisabledException,
  renderTemplate,
} from '#services/mail/mail_service'
import { useSmtp, startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'

const mailService = await app.container.make(MailService)

const configService = await app.container.make(ConfigService)

test.group('Mail | renderTemplate', () => {
  test('replaces known placeholders, every occurrence', ({ assert }) => {
    assert.equal(
      renderTemplate('{appName}: open {url} ({url})', {
        appName: 'Tern',
        url: 'https://t.example/x',
      }),
      'Tern: open https://t.example/x (https://t.example/x)'
    )
  })

  test('leaves unknown placeholders and other braces as they are', ({ assert }) => {
    assert.equal(
      renderTemplate('Hi {name}, {unknown} { spaced } {} {1x} {{url}}', { name: 'Ann', url: 'U' }),
      'Hi Ann, {unknown} { spaced } {} {1x} {U}'
    )
  })

  test('inserts values literally, without rendering them again', ({ assert }) => {
    assert.equal(renderTemplate('{a} {b}', { a: '{b}', b: '$& $1' }), '{b} $& $1')
  })

  test('renders numbers and ignores inherited object keys', ({ assert }) => {
    assert.equal(
      renderTemplate('{count} {toString} {constructor}', { count: 3 }),
      '3 {toString} {constructor}'
    )
  })
})

test.group('Mail | service', (group) => {
  let smtp: TestSmtpServer | undefined
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(async () => {
    await mailService.idle()
    notifications.restore()
    await smtp?.close()
    smtp = undefined
  })

  test('is enabled only while smtp.enabled is on', async ({ assert }) => {
    assert.isFalse(await mailService.isEnabled())
    await assert.rejects(() => mailService.ensureEnabled(), 'SMTP is disabled')
    try {
      await mailService.ensureEnabled()
    } catch (error) {
      assert.instanceOf(error, MailDisabledException)
      assert.equal((error as MailDisabledException).status, 400)
    }

    await configService.update([{ key: 'smtp.enabled', value: true }])
    assert.isTrue(await mailService.isEnabled())
    await mailService.ensureEnabled()
  })

  test('refuses every kind of mail while SMTP is off, without contacting the channel', async ({
    assert,
  }) => {
    const fake = notifications.fake()
    await assert.rejects(
      () => mailService.sendPasswordReset('a@example.com', { url: 'u' }),
      'SMTP is disabled'
    )
    await assert.rejects(
      () =>
        mailService.sendInvite('a@example.com', {
          url: 'u',
          password: 'p',
          email: 'a@example.com',
        }),
      'SMTP is disabled'
    )
    await assert.rejects(() => mailService.sendTest('a@example.com'), 'SMTP is disabled')
    fake.assertNothingSent()
  })

  test('sends the password-reset mail from the templates with {url} and {appName} filled', async ({
    assert,
  }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port, [{ key: 'general.appName', value: 'Tern QA' }])
    const url = 'http://localhost:3333/auth/resetPassword/abc123'

    await mailService.sendPasswordReset('alice@example.com', { url })

    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Tern QA password reset')
    assert.include(String(mail.text), `Open this link to choose a new one:\n${url}`)
    assert.notInclude(String(mail.text), '{url}')
    assert.deepEqual(mail.from?.value, [{ address: 'noreply@tern.test', name: 'Tern QA' }])
  })

  test('sends the invitation with {url}, {email} and {password}, using changed templates', async ({
    assert,
  }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port, [
      { key: 'email.inviteSubject', value: 'Join {appName}, {email}' },
      { key: 'email.inviteMessage', value: 'Go to {url} as {email} with {password}. {unknown}' },
    ])

    await mailService.sendInvite('bob@example.com', {
      url: 'http://localhost:3333/auth/signIn',
      password: 'Xy7-secret',
      email: 'bob@example.com',
    })

    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Join Tern, bob@example.com')
    assert.equal(
      String(mail.text).trim(),
      'Go to http://localhost:3333/auth/signIn as bob@example.com with Xy7-secret. {unknown}'
    )
  })

  test('the default invitation text names the address and the password', async ({ assert }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port)

    await mailService.sendInvite('carol@example.com', {
      url: 'http://localhost:3333/auth/signIn',
      password: 'Pw-123456',
      email: 'carol@example.com',
    })

    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Tern invite')
    assert.include(String(mail.text), 'You were invited to Tern.')
    assert.include(
      String(mail.text),
      'Sign in with the email "carol@example.com" and the password "Pw-123456"'
    )
  })

  test('a refused mail throws MailDeliveryException (400) with the server reply', async ({
    assert,
  }) => {
    smtp = await startSmtpServer({
      reject: { at: 'data', code: 554, message: 'Message rejected as spam' },
    })
    await useSmtp(smtp.port)

    try {
      await mailService.sendPasswordReset('alice@example.com', { url: 'u' })
      assert.fail('expected a delivery failure')
    } catch (error) {
      assert.instanceOf(error, MailDeliveryException)
      assert.equal((error as MailDeliveryException).status, 400)
      assert.include((error as Error).message, '554 Message rejected as spam')
    }
  })

  test('notifications.fake() records the rendered mail instead of sending it', async () => {
    await configService.update([{ key: 'smtp.enabled', value: true }])
    const fake = notifications.fake()

    await mailService.sendPasswordReset('alice@example.com', { url: 'https://t.example/r/1' })

    fake.assertSent(
      ({ channel, notification }) =>
        channel === 'email' &&
        notification.type === 'auth:password_reset' &&
        notification.to.join() === 'alice@example.com' &&
        notification.subject === 'Tern password reset' &&
        notification.text.includes('https://t.example/r/1')
    )
  })

  test('queue stores the mail and answers before any SMTP traffic; the outbox delivers it', async ({
    assert,
  }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port)

    await mailService.queue(
      { type: 'mail:test', to: 'alice@example.com', subject: 'Queued', text: 'Later' },
      { eventId: 'queued-1' }
    )
    const [row] = await db.from('notification_deliveries').where('event_id', 'queued-1')
    assert.containsSubset(row, {
      channel: 'email',
      target: 'alice@example.com',
      event_type: 'mail:test',
    })

    await mailService.idle()
    assert.lengthOf(smtp.messages, 1)
    assert.equal(smtp.messages[0].subject, 'Queued')
    assert.containsSubset(
      await db.from('notification_deliveries').where('event_id', 'queued-1').first(),
      {
        status: 'delivered',
        payload: null,
      }
    )
  })

  test('a queued mail refused for good is logged with its context and reason and kept as failed', async ({
    assert,
  }) => {
    smtp = await startSmtpServer({ reject: { code: 550, message: 'No such user here' } })
    await useSmtp(smtp.port)
    const logged: { bindings: Record<string, unknown>; message: string }[] = []
    const original = logger.error
    logger.error = ((bindings: Record<string, unknown>, message: string, ...values: unknown[]) => {
      logged.push({ bindings, message: message.replace('%s', String(values[0])) })
    }) as typeof logger.error
    try {
      await mailService.queueTemplate(
        'auth:password_reset',
        'ghost@example.com',
        { subjectKey: 'email.resetPasswordSubject', textKey: 'email.resetPasswordMessage' },
        { url: 'u' },
        { eventId: 'refused-1', log: { userId: 'u-1' } }
      )
      await mailService.idle()
    } finally {
      logger.error = original
    }

    assert.lengthOf(logged, 1)
    assert.equal(logged[0].bindings.userId, 'u-1')
    assert.include(String(logged[0].bindings.reason), '550 No such user here')
    assert.include(logged[0].message, 'Sending mail in the background failed')
    const row = await db.from('notification_deliveries').where('event_id', 'refused-1').first()
    assert.containsSubset(row, { status: 'failed', attempts: 1 })
    assert.include(row.last_error, '550 No such user here')
  })
})
