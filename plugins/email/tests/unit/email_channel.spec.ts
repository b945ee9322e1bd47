import { test } from '@japa/runner'
import emitter from '@adonisjs/core/services/emitter'
import type { EmitterLike } from '@adonisjs/core/types/events'
import type { MailEvents } from '@adonisjs/mail/types'
import { startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { EmailChannel } from '../../src/email_channel.js'
import { emailSettingsFrom, type EmailSettings } from '../../src/settings.js'
import { IMPLICIT_TLS_PORT, smtpTransportOptions } from '../../src/transport_options.js'
import { SMTPTransport } from '@adonisjs/mail/transports/smtp'

const mailEmitter = emitter as unknown as EmitterLike<MailEvents>

function settings(overrides: Partial<EmailSettings> = {}): EmailSettings {
  return {
    enabled: true,
    host: '127.0.0.1',
    port: 2525,
    from: 'noreply@tern.test',
    fromName: 'Tern',
    username: '',
    password: '',
    allowUnauthorizedCertificates: false,
    ...overrides,
  }
}

/** A channel whose settings are read from a mutable object, like the config on each send. */
function channelWith(current: { settings: EmailSettings }) {
  return new EmailChannel({ settings: async () => current.settings, emitter: mailEmitter })
}

const notification = {
  type: 'mail:test',
  to: ['alice@example.com'],
  subject: 'Hello',
  text: 'Plain body',
}

test.group('Email plugin | transport options', () => {
  test('port 465 connects with implicit TLS, other ports do not', ({ assert }) => {
    const implicit = smtpTransportOptions(settings({ port: IMPLICIT_TLS_PORT })) as Record<
      string,
      unknown
    >
    assert.equal(IMPLICIT_TLS_PORT, 465)
    assert.isTrue(implicit.secure)
    assert.equal(implicit.port, 465)
    for (const port of [25, 587, 2525]) {
      const options = smtpTransportOptions(settings({ port })) as Record<string, unknown>
      assert.isFalse(options.secure, `port ${port}`)
      assert.equal(options.port, port)
    }
  })

  test('port 0 leaves the port to the SMTP client default', ({ assert }) => {
    const options = smtpTransportOptions(settings({ port: 0 })) as Record<string, unknown>
    assert.isUndefined(options.port)
    assert.isFalse(options.secure)
  })

  test('credentials are configured only when a username is set', ({ assert }) => {
    const anonymous = smtpTransportOptions(settings({ password: 'ignored' })) as Record<
      string,
      unknown
    >
    assert.isUndefined(anonymous.auth)
    const authenticated = smtpTransportOptions(
      settings({ username: 'bob', password: 's3cret' })
    ) as Record<string, unknown>
    assert.deepEqual(authenticated.auth, { type: 'login', user: 'bob', pass: 's3cret' })
  })

  test('certificates are verified unless unauthorized ones are allowed', ({ assert }) => {
    const strict = smtpTransportOptions(settings()) as { tls: { rejectUnauthorized: boolean } }
    assert.isTrue(strict.tls.rejectUnauthorized)
    const lax = smtpTransportOptions(settings({ allowUnauthorizedCertificates: true })) as {
      tls: { rejectUnauthorized: boolean }
    }
    assert.isFalse(lax.tls.rejectUnauthorized)
  })

  test('settings are read from the typed config values, trimmed', ({ assert }) => {
    const values: Record<string, unknown> = {
      'smtp.enabled': true,
      'smtp.host': ' mail.example.com ',
      'smtp.port': 465,
      'smtp.email': 'noreply@example.com',
      'smtp.username': 'user',
      'smtp.password': ' pass ',
      'smtp.allowUnauthorizedCertificates': false,
      'general.appName': 'My Tern',
    }
    assert.deepEqual(
      emailSettingsFrom((key) => values[key]),
      {
        enabled: true,
        host: 'mail.example.com',
        port: 465,
        from: 'noreply@example.com',
        fromName: 'My Tern',
        username: 'user',
        password: ' pass ',
        allowUnauthorizedCertificates: false,
      }
    )
  })
})

test.group('Email plugin | channel', (group) => {
  let smtp: TestSmtpServer
  group.each.teardown(() => smtp?.close())

  test('delivers subject, text, HTML, From with the app name and To', async ({ assert }) => {
    smtp = await startSmtpServer()
    const channel = channelWith({ settings: settings({ port: smtp.port, fromName: 'Tern Test' }) })

    await channel.send({ ...notification, html: '<p>HTML body</p>' })

    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Hello')
    assert.equal(mail.text?.trim(), 'Plain body')
    assert.include(String(mail.html), '<p>HTML body</p>')
    assert.deepEqual(mail.from?.value, [{ address: 'noreply@tern.test', name: 'Tern Test' }])
    assert.deepEqual(
      (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) =>
        to!.value.map((v) => v.address)
      ),
      ['alice@example.com']
    )
  })

  test('reads the settings on every send: a new port applies to the next mail', async ({
    assert,
  }) => {
    smtp = await startSmtpServer()
    const second = await startSmtpServer()
    try {
      const current = { settings: settings({ port: smtp.port }) }
      const channel = channelWith(current)
      await channel.send({ ...notification, subject: 'first' })
      current.settings = settings({ port: second.port })
      await channel.send({ ...notification, subject: 'second' })

      assert.deepEqual(
        smtp.messages.map((m) => m.subject),
        ['first']
      )
      assert.deepEqual(
        second.messages.map((m) => m.subject),
        ['second']
      )
    } finally {
      await second.close()
    }
  })

  test('logs in with the username and password when a username is set', async ({ assert }) => {
    smtp = await startSmtpServer({ auth: { username: 'mailer', password: 'p4ss' } })
    const channel = channelWith({
      settings: settings({ port: smtp.port, username: 'mailer', password: 'p4ss' }),
    })

    await channel.send(notification)

    assert.lengthOf(smtp.messages, 1)
    assert.deepEqual(
      smtp.authAttempts.map(({ username, password, accepted }) => ({
        username,
        password,
        accepted,
      })),
      [{ username: 'mailer', password: 'p4ss', accepted: true }]
    )
  })

  test('does not log in without a username, so a server requiring AUTH refuses the mail', async ({
    assert,
  }) => {
    smtp = await startSmtpServer({ auth: { username: 'mailer', password: 'p4ss' } })
    const channel = channelWith({ settings: settings({ port: smtp.port, password: 'p4ss' }) })

    await assert.rejects(() => channel.send(notification), /530/)
    assert.lengthOf(smtp.authAttempts, 0)
    assert.lengthOf(smtp.messages, 0)
  })

  test('rejects with the server reply when a recipient is refused', async ({ assert }) => {
    smtp = await startSmtpServer({
      reject: { at: 'rcpt', code: 550, message: 'Mailbox unavailable' },
    })
    const channel = channelWith({ settings: settings({ port: smtp.port }) })

    await assert.rejects(() => channel.send(notification), /550 Mailbox unavailable/)
  })

  test('refuses to send while SMTP is disabled or unconfigured', async ({ assert }) => {
    smtp = await startSmtpServer()
    await assert.rejects(
      () =>
        channelWith({ settings: settings({ port: smtp.port, enabled: false }) }).send(notification),
      'SMTP is disabled'
    )
    await assert.rejects(
      () => channelWith({ settings: settings({ port: smtp.port, host: '' }) }).send(notification),
      'SMTP is not configured: smtp.host is not set'
    )
    await assert.rejects(
      () => channelWith({ settings: settings({ port: smtp.port, from: '' }) }).send(notification),
      'SMTP is not configured: smtp.email is not set'
    )
    assert.lengthOf(smtp.messages, 0)
  })

  test('upgrades with STARTTLS and verifies the certificate unless unauthorized ones are allowed', async ({
    assert,
  }) => {
    smtp = await startSmtpServer({ startTls: true })

    const strict = channelWith({ settings: settings({ port: smtp.port }) })
    await assert.rejects(() => strict.send({ ...notification, subject: 'strict' }), /certificate/i)

    const lax = channelWith({
      settings: settings({ port: smtp.port, allowUnauthorizedCertificates: true }),
    })
    await lax.send({ ...notification, subject: 'lax' })
    assert.deepEqual(
      smtp.messages.map((m) => m.subject),
      ['lax']
    )
  })

  test('the options made for port 465 speak implicit TLS to a TLS-only server', async ({
    assert,
  }) => {
    smtp = await startSmtpServer({ secure: true })
    const options = smtpTransportOptions(
      settings({ port: IMPLICIT_TLS_PORT, allowUnauthorizedCertificates: true })
    )
    // Same options, only pointed at the test server's port (465 needs privileges).
    const transport = new SMTPTransport({ ...options, port: smtp.port })
    try {
      await transport.send({
        from: 'noreply@tern.test',
        to: ['alice@example.com'],
        subject: 'over TLS',
        text: 'x',
      })
    } finally {
      await transport.close()
    }
    assert.deepEqual(
      smtp.messages.map((m) => m.subject),
      ['over TLS']
    )

    const plain = new SMTPTransport({
      ...smtpTransportOptions(settings({ port: smtp.port })),
      greetingTimeout: 1000,
    })
    try {
      await assert.rejects(() =>
        plain.send({
          from: 'noreply@tern.test',
          to: ['alice@example.com'],
          subject: 'plain',
          text: 'x',
        })
      )
    } finally {
      await plain.close()
    }
  })
})
