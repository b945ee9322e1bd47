import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { ParsedMail } from 'mailparser'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'
import { useSmtp, startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'

const configService = await app.container.make(ConfigService)

const ROUTE = '/api/configs/admin/testEmail'

/** A port nothing listens on (a server was there a moment ago). */
async function closedPort() {
  const server = await startSmtpServer()
  await server.close()
  return server.port
}

/** The bearer header of a new admin. */
async function adminAuth() {
  return authHeaderFor(await createUser({ admin: true }))
}

/** Asks for the test mail to `email`, as `auth` (by default a new admin's). */
async function sendTestEmail(client: ApiClient, email: string, auth?: [string, string]) {
  return client
    .post(ROUTE)
    .header(...(auth ?? (await adminAuth())))
    .json({ email })
}

function recipients(mail: ParsedMail) {
  return (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap(
    (to) => to?.value.map((v) => v.address) ?? []
  )
}

test.group('Configs | testEmail access', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('answers 401 to a visitor and 403 to a signed-in user who is not an admin', async ({
    client,
  }) => {
    const visitor = await client.post(ROUTE).json({ email: 'alice@example.com' })
    visitor.assertStatus(401)

    const user = await createUser()
    const byBearer = await client
      .post(ROUTE)
      .header(...(await authHeaderFor(user)))
      .json({ email: 'a@example.com' })
    byBearer.assertStatus(403)
    const byCookie = await client
      .post(ROUTE)
      .header('Cookie', await accessCookieFor(user))
      .json({ email: 'a@example.com' })
    byCookie.assertStatus(403)
  })

  test('refuses a body without a valid e-mail address with 400', async ({ client, assert }) => {
    const admin = await createUser({ admin: true })
    for (const body of [{}, { email: 'not-an-address' }, { email: 42 }]) {
      const response = await client
        .post(ROUTE)
        .header(...(await authHeaderFor(admin)))
        .json(body)
      response.assertStatus(400)
      assert.isArray(response.body().message, JSON.stringify(body))
      assert.equal(response.body().error, 'Bad Request')
    }
  })
})

test.group('Configs | testEmail sending', (group) => {
  let smtp: TestSmtpServer | undefined
  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.teardown(async () => {
    await smtp?.close()
    smtp = undefined
  })

  test('answers 400 "SMTP is disabled" while SMTP is off, and sends nothing', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port, [{ key: 'smtp.enabled', value: false }])
    const response = await sendTestEmail(client, 'a@example.com')

    response.assertStatus(400)
    response.assertBody({ statusCode: 400, message: 'SMTP is disabled', error: 'Bad Request' })
    assert.lengthOf(smtp.messages, 0)
  })

  test('sends the test mail: 201, From the app name and smtp.email, To the address', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer()
    await useSmtp(smtp.port, [{ key: 'general.appName', value: 'Tern QA' }])
    const response = await sendTestEmail(client, 'alice@example.com')

    response.assertStatus(201)
    const mail = await smtp.waitForMessage()
    assert.equal(mail.subject, 'Test email')
    assert.include(String(mail.text), 'This is a test email from Tern QA.')
    assert.deepEqual(mail.from?.value, [{ address: 'noreply@tern.test', name: 'Tern QA' }])
    assert.deepEqual(recipients(mail), ['alice@example.com'])
  })

  test('a port changed through the admin API applies to the next mail without restart', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer()
    const second = await startSmtpServer()
    try {
      await useSmtp(smtp.port)
      const auth = await adminAuth()

      ;(await sendTestEmail(client, 'first@example.com', auth)).assertStatus(201)
      const patch = await client
        .patch('/api/configs/admin')
        .header(...auth)
        .json([{ key: 'smtp.port', value: second.port }])
      patch.assertStatus(200)
      ;(await sendTestEmail(client, 'second@example.com', auth)).assertStatus(201)

      assert.deepEqual(smtp.messages.flatMap(recipients), ['first@example.com'])
      assert.deepEqual(second.messages.flatMap(recipients), ['second@example.com'])
    } finally {
      await second.close()
    }
  })

  test('logs in with smtp.username and smtp.password when a username is set', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer({ auth: { username: 'mailer', password: 'p4ss word' } })
    const auth = await adminAuth()

    await useSmtp(smtp.port)
    const anonymous = await sendTestEmail(client, 'alice@example.com', auth)
    anonymous.assertStatus(400)
    assert.include(anonymous.body().message, '530')

    await useSmtp(smtp.port, [
      { key: 'smtp.username', value: 'mailer' },
      { key: 'smtp.password', value: 'p4ss word' },
    ])
    const authenticated = await sendTestEmail(client, 'alice@example.com', auth)
    authenticated.assertStatus(201)

    assert.deepEqual(
      smtp.authAttempts.map(({ username, password, accepted }) => ({
        username,
        password,
        accepted,
      })),
      [{ username: 'mailer', password: 'p4ss word', accepted: true }]
    )
    assert.lengthOf(smtp.messages, 1)
  })

  test('wrong credentials answer 400 with the server reply', async ({ client, assert }) => {
    smtp = await startSmtpServer({ auth: { username: 'mailer', password: 'right' } })
    await useSmtp(smtp.port, [
      { key: 'smtp.username', value: 'mailer' },
      { key: 'smtp.password', value: 'wrong' },
    ])
    const response = await sendTestEmail(client, 'a@example.com')

    response.assertStatus(400)
    assert.include(response.body().message, '535 Authentication credentials invalid')
    assert.lengthOf(smtp.messages, 0)
  })

  test('a recipient refused by the server answers 400 with the server reply', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer({
      reject: { at: 'rcpt', code: 550, message: 'No such user here' },
    })
    await useSmtp(smtp.port)
    const response = await sendTestEmail(client, 'ghost@example.com')

    response.assertStatus(400)
    assert.equal(response.body().statusCode, 400)
    assert.equal(response.body().error, 'Bad Request')
    assert.include(response.body().message, '550 No such user here')
  })

  test('an unreachable server answers 400 with the connection error', async ({
    client,
    assert,
  }) => {
    await useSmtp(await closedPort())
    const response = await sendTestEmail(client, 'a@example.com')

    response.assertStatus(400)
    assert.include(response.body().message, 'ECONNREFUSED')
  })

  test('a missing host answers 400 naming the setting', async ({ client }) => {
    await configService.update([
      { key: 'smtp.enabled', value: true },
      { key: 'smtp.email', value: 'noreply@tern.test' },
    ])
    const response = await sendTestEmail(client, 'a@example.com')

    response.assertStatus(400)
    response.assertBody({
      statusCode: 400,
      message: 'SMTP is not configured: smtp.host is not set',
      error: 'Bad Request',
    })
  })

  test('a self-signed certificate is refused unless smtp.allowUnauthorizedCertificates is on', async ({
    client,
    assert,
  }) => {
    smtp = await startSmtpServer({ startTls: true })
    await useSmtp(smtp.port)
    const auth = await adminAuth()

    const strict = await sendTestEmail(client, 'a@example.com', auth)
    strict.assertStatus(400)
    assert.match(strict.body().message, /certificate/i)

    await configService.update([{ key: 'smtp.allowUnauthorizedCertificates', value: true }])
    const lax = await sendTestEmail(client, 'a@example.com', auth)
    lax.assertStatus(201)
    assert.lengthOf(smtp.messages, 1)
  })
})
