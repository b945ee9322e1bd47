import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import User from '#models/user'
import { verifyUserPassword } from '#services/auth/password_hashes'
import RefreshToken from '#models/refresh_token'
import PasswordResetToken from '#models/password_reset_token'
import app from '@adonisjs/core/services/app'
import MailService from '#services/mail/mail_service'
import { hashToken } from '#services/auth/tokens'
import { useSmtp, startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { createUser, sessionCookie, sessionFor, setCookie } from '#tests/helpers/auth'

const mailService = await app.container.make(MailService)

/** Points the smtp.* settings at the test SMTP server. */
function useTestSmtp(smtp: TestSmtpServer) {
  return useSmtp(smtp.port, [{ key: 'general.appUrl', value: 'https://tern.example.com/' }])
}

/** The reset link of a received mail. */
function resetLinkIn(text: string | undefined): string {
  const match = /https:\/\/tern\.example\.com\/auth\/resetPassword\/([A-Za-z0-9_-]+)/.exec(
    text ?? ''
  )
  if (!match) throw new Error(`no reset link in: ${text}`)
  return match[1]
}

test.group('Auth | password change', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('answers a new refresh token, sets new cookies and ends every other session', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ username: 'changer', password: 'old-password' })
    const current = await sessionFor(user)
    const other = await sessionFor(user)

    const response = await client
      .patch('/api/auth/password')
      .header('Cookie', sessionCookie(current))
      .json({ oldPassword: 'old-password', password: 'new-password' })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), ['refreshToken'])
    assert.equal(setCookie(response, 'refresh_token')!.value, response.body().refreshToken)
    const newAccess = setCookie(response, 'access_token')!.value

    assert.equal(
      await RefreshToken.query()
        .where('userId', user.id)
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      1
    )
    const otherMe = await client.get('/api/users/me').header('Cookie', sessionCookie(other))
    otherMe.assertStatus(401)
    const otherRefresh = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${other.refreshToken}`)
    otherRefresh.assertStatus(401)

    const me = await client.get('/api/users/me').header('Cookie', `access_token=${newAccess}`)
    me.assertStatus(200)
    const refreshed = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${response.body().refreshToken}`)
    refreshed.assertStatus(200)

    const oldSignIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'changer', password: 'old-password' })
    oldSignIn.assertStatus(401)
    const newSignIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'changer', password: 'new-password' })
    newSignIn.assertStatus(200)
  })

  test('answers 403 for a wrong or missing old password', async ({ client }) => {
    const user = await createUser({ password: 'old-password' })
    const session = await sessionFor(user)
    const wrong = await client
      .patch('/api/auth/password')
      .header('Cookie', sessionCookie(session))
      .json({ oldPassword: 'not-it-at-all', password: 'new-password' })
    wrong.assertStatus(403)
    wrong.assertBody({ statusCode: 403, message: 'Invalid password', error: 'Forbidden' })
    const missing = await client
      .patch('/api/auth/password')
      .header('Cookie', sessionCookie(session))
      .json({ password: 'new-password' })
    missing.assertStatus(403)
  })

  test('a user without a password may set one without oldPassword', async ({ client, assert }) => {
    const user = await createUser({ password: null })
    const session = await sessionFor(user)
    const response = await client
      .patch('/api/auth/password')
      .header('Cookie', sessionCookie(session))
      .json({ password: 'first-password' })
    response.assertStatus(200)
    assert.isTrue(await verifyUserPassword(await User.findOrFail(user.id), 'first-password'))
  })

  test('validates the new password and needs a signed-in user', async ({ client, assert }) => {
    const session = await sessionFor(await createUser())
    const short = await client
      .patch('/api/auth/password')
      .header('Cookie', sessionCookie(session))
      .json({ oldPassword: 'password123', password: 'short' })
    short.assertStatus(400)
    assert.deepEqual(short.body().message, [
      'password must be longer than or equal to 8 characters',
    ])

    const anonymous = await client.patch('/api/auth/password').json({ password: 'new-password' })
    anonymous.assertStatus(401)
  })
})

test.group('Auth | password reset', (group) => {
  let smtp: TestSmtpServer

  group.setup(async () => {
    smtp = await startSmtpServer()
    return () => smtp.close()
  })
  group.each.setup(async () => {
    smtp.clear()
    const rollback = await testUtils.db().withGlobalTransaction()
    return async () => {
      await mailService.idle()
      await rollback()
    }
  })

  test('end to end: the mailed link sets a new password once', async ({ client, assert }) => {
    await useTestSmtp(smtp)
    const user = await createUser({
      username: 'forgetful',
      email: 'forgetful@example.com',
      password: 'old-password',
    })
    const session = await sessionFor(user)

    const request = await client.post('/api/auth/resetPassword/Forgetful@example.com')
    request.assertStatus(202)
    assert.equal(request.text(), '')

    const mail = await smtp.waitForMessage((m) =>
      (m.to as any)?.text?.includes('forgetful@example.com')
    )
    const token = resetLinkIn(mail.text)
    assert.equal(
      (await PasswordResetToken.findByOrFail('userId', user.id)).tokenHash,
      hashToken(token)
    )
    assert.isNull(await PasswordResetToken.findBy('tokenHash', token))

    const reset = await client
      .post('/api/auth/resetPassword')
      .json({ token, password: 'brand-new-password' })
    reset.assertStatus(204)
    assert.equal(reset.text(), '')

    const signIn = await client
      .post('/api/auth/signIn')
      .json({ email: 'forgetful@example.com', password: 'brand-new-password' })
    signIn.assertStatus(200)
    const oldPassword = await client
      .post('/api/auth/signIn')
      .json({ username: 'forgetful', password: 'old-password' })
    oldPassword.assertStatus(401)

    // Sessions started before the reset are over.
    const before = await client.get('/api/users/me').header('Cookie', sessionCookie(session))
    before.assertStatus(401)

    // The link works once.
    const again = await client
      .post('/api/auth/resetPassword')
      .json({ token, password: 'another-password' })
    again.assertStatus(400)
    again.assertBody({ statusCode: 400, message: 'Token invalid or expired', error: 'Bad Request' })
  })

  test('the link expires after one hour', async ({ client, assert }) => {
    await useTestSmtp(smtp)
    const user = await createUser({ email: 'late@example.com', password: 'old-password' })
    await client.post('/api/auth/resetPassword/late@example.com')
    const token = resetLinkIn((await smtp.waitForMessage()).text)

    const row = await PasswordResetToken.findByOrFail('userId', user.id)
    assert.closeTo(row.expiresAt.diffNow('minutes').minutes, 60, 1)
    await PasswordResetToken.query()
      .where('id', row.id)
      .update({ expiresAt: DateTime.utc().minus({ seconds: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })

    const reset = await client
      .post('/api/auth/resetPassword')
      .json({ token, password: 'brand-new-password' })
    reset.assertStatus(400)
    reset.assertBody({ statusCode: 400, message: 'Token invalid or expired', error: 'Bad Request' })
    assert.isTrue(await verifyUserPassword(await User.findOrFail(user.id), 'old-password'))
  })

  test('answers the same empty 202 for an unknown address and sends nothing', async ({
    client,
    assert,
  }) => {
    await useTestSmtp(smtp)
    await createUser({ email: 'known@example.com' })
    const unknown = await client.post('/api/auth/resetPassword/unknown@example.com')
    const known = await client.post('/api/auth/resetPassword/known@example.com')
    unknown.assertStatus(202)
    known.assertStatus(202)
    assert.equal(unknown.text(), known.text())
    assert.equal(unknown.header('content-type'), known.header('content-type'))

    await mailService.idle()
    await smtp.waitForMessage()
    assert.lengthOf(smtp.messages, 1)
    assert.include((smtp.messages[0].to as any).text, 'known@example.com')
  })

  test('answers 202 and sends nothing while mail is off', async ({ client, assert }) => {
    const user = await createUser({ email: 'nomail@example.com' })
    const response = await client.post('/api/auth/resetPassword/nomail@example.com')
    response.assertStatus(202)
    await mailService.idle()
    assert.lengthOf(smtp.messages, 0)
    assert.isNull(await PasswordResetToken.findBy('userId', user.id))
  })

  test('refuses an unknown token and validates the body', async ({ client, assert }) => {
    const unknown = await client
      .post('/api/auth/resetPassword')
      .json({ token: 'nope', password: 'brand-new-password' })
    unknown.assertStatus(400)
    unknown.assertBody({
      statusCode: 400,
      message: 'Token invalid or expired',
      error: 'Bad Request',
    })

    const invalid = await client
      .post('/api/auth/resetPassword')
      .json({ token: 'nope', password: 'short' })
    invalid.assertStatus(400)
    assert.deepEqual(invalid.body().message, [
      'password must be longer than or equal to 8 characters',
    ])
  })
})
