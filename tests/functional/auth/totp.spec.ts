import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import User from '#models/user'
import LoginToken from '#models/login_token'
import { hashToken } from '#services/auth/tokens'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import {
  authHeaderFor,
  awayFromTotpStepEnd,
  createUser,
  setCookie,
  totpCode,
} from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

const PERIOD = 30

/** A user with TOTP fully on (secret set through the real routes). */
async function userWithTotp(client: any, password = 'password123') {
  const user = await createUser({ password })
  const auth = await authHeaderFor(user)
  const enable = await client
    .post('/api/auth/totp/enable')
    .header(...auth)
    .json({ password })
  const secret: string = enable.body().totpSecret
  await awayFromTotpStepEnd()
  const verify = await client
    .post('/api/auth/totp/verify')
    .header(...auth)
    .json({ password, code: await totpCode(secret) })
  verify.assertStatus(201)
  return { user: await User.findOrFail(user.id), secret, auth }
}

async function loginTokenFor(
  client: any,
  username: string,
  password = 'password123'
): Promise<string> {
  const response = await client.post('/api/auth/signIn').json({ username, password })
  response.assertStatus(200)
  return response.body().loginToken
}

test.group('Auth | TOTP set-up', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('enable answers the secret, an otpauth URI and a QR code, and TOTP stays off until verified', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'general.appName', value: 'Tern Test' }])
    const user = await createUser({ username: 'totp.user' })
    const response = await client
      .post('/api/auth/totp/enable')
      .header(...(await authHeaderFor(user)))
      .json({ password: 'password123' })

    response.assertStatus(201)
    const body = response.body()
    assert.sameMembers(Object.keys(body), ['totpAuthUrl', 'totpSecret', 'qrCode'])
    assert.match(body.totpSecret, /^[A-Z2-7]{32}$/)
    assert.match(body.qrCode, /^data:image\/png;base64,/)
    const url = new URL(body.totpAuthUrl)
    assert.equal(url.protocol, 'otpauth:')
    assert.equal(url.host, 'totp')
    assert.equal(decodeURIComponent(url.pathname), '/Tern Test:totp.user')
    assert.equal(url.searchParams.get('secret'), body.totpSecret)
    assert.equal(url.searchParams.get('issuer'), 'Tern Test')
    assert.equal(url.searchParams.get('algorithm') ?? 'SHA1', 'SHA1')
    assert.equal(url.searchParams.get('digits') ?? '6', '6')
    assert.equal(url.searchParams.get('period') ?? '30', '30')

    const stored = await User.findOrFail(user.id)
    assert.equal(stored.totpSecret, body.totpSecret)
    assert.isFalse(stored.totpVerified)

    // TOTP is not on yet: the user signs in with the password alone.
    const signIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'totp.user', password: 'password123' })
    assert.property(signIn.body(), 'accessToken')
  })

  test('enable checks the password', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .post('/api/auth/totp/enable')
      .header(...(await authHeaderFor(user)))
      .json({ password: 'wrong-password' })
    response.assertStatus(403)
    response.assertBody({ statusCode: 403, message: 'Invalid password', error: 'Forbidden' })
    assert.isNull((await User.findOrFail(user.id)).totpSecret)
  })

  test('needs a signed-in user', async ({ client }) => {
    const response = await client.post('/api/auth/totp/enable').json({ password: 'password123' })
    response.assertStatus(401)
  })

  test('verify turns TOTP on with a real code; enable then says it is already enabled', async ({
    client,
    assert,
  }) => {
    const { user, auth } = await userWithTotp(client)
    assert.isTrue(user.totpVerified)
    assert.isNotNull(user.totpLastStep)

    const me = await client.get('/api/users/me').header(...auth)
    assert.isTrue(me.body().totpVerified)
    assert.notProperty(me.body(), 'totpSecret')

    const again = await client
      .post('/api/auth/totp/enable')
      .header(...auth)
      .json({ password: 'password123' })
    again.assertStatus(400)
    again.assertBody({ statusCode: 400, message: 'TOTP is already enabled', error: 'Bad Request' })
  })

  test('verify answers 400 when not in progress or the code is wrong, 403 for a wrong password', async ({
    client,
  }) => {
    const user = await createUser()
    const auth = await authHeaderFor(user)
    const notStarted = await client
      .post('/api/auth/totp/verify')
      .header(...auth)
      .json({ password: 'password123', code: '123456' })
    notStarted.assertStatus(400)
    notStarted.assertBody({
      statusCode: 400,
      message: 'TOTP is not in progress',
      error: 'Bad Request',
    })

    const enable = await client
      .post('/api/auth/totp/enable')
      .header(...auth)
      .json({ password: 'password123' })
    const secret = enable.body().totpSecret
    await awayFromTotpStepEnd()
    const good = await totpCode(secret)
    const wrongCode = String((Number(good) + 1) % 1_000_000).padStart(6, '0')
    const wrong = await client
      .post('/api/auth/totp/verify')
      .header(...auth)
      .json({ password: 'password123', code: wrongCode })
    wrong.assertStatus(400)
    wrong.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    const badPassword = await client
      .post('/api/auth/totp/verify')
      .header(...auth)
      .json({ password: 'wrong-password', code: good })
    badPassword.assertStatus(403)

    const ok = await client
      .post('/api/auth/totp/verify')
      .header(...auth)
      .json({ password: 'password123', code: good })
    ok.assertStatus(201)
    ok.assertBody(true)
  })

  test('disable needs the password and an unused code', async ({ client, assert }) => {
    const { user, secret, auth } = await userWithTotp(client)
    const nowSeconds = Math.floor(Date.now() / 1000)

    // The code just used to verify cannot be replayed.
    const replay = await client
      .post('/api/auth/totp/disable')
      .header(...auth)
      .json({ password: 'password123', code: await totpCode(secret, user.totpLastStep! * PERIOD) })
    replay.assertStatus(400)
    replay.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    const badPassword = await client
      .post('/api/auth/totp/disable')
      .header(...auth)
      .json({ password: 'wrong-password', code: await totpCode(secret, nowSeconds + PERIOD) })
    badPassword.assertStatus(403)

    // The next step's code is within the accepted drift and later than the last one used.
    const ok = await client
      .post('/api/auth/totp/disable')
      .header(...auth)
      .json({ password: 'password123', code: await totpCode(secret, nowSeconds + PERIOD) })
    ok.assertStatus(201)
    ok.assertBody(true)
    const stored = await User.findOrFail(user.id)
    assert.isFalse(stored.totpVerified)
    assert.isNull(stored.totpSecret)

    const notEnabled = await client
      .post('/api/auth/totp/disable')
      .header(...auth)
      .json({ password: 'password123', code: '123456' })
    notEnabled.assertStatus(400)
    notEnabled.assertBody({ statusCode: 400, message: 'TOTP is not enabled', error: 'Bad Request' })
  })
})

test.group('Auth | TOTP sign-in', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a code from the previous step is accepted once, then refused as a replay', async ({
    client,
    assert,
  }) => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const user = await createUser()
    user.merge({ totpSecret: secret, totpVerified: true, totpLastStep: null })
    await user.save()
    await awayFromTotpStepEnd()
    const previousCode = await totpCode(secret, Math.floor(Date.now() / 1000) - PERIOD)

    const loginToken = await loginTokenFor(client, user.username)
    const response = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken, totp: previousCode })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), ['accessToken', 'refreshToken'])
    assert.equal(setCookie(response, 'access_token')!.value, response.body().accessToken)
    assert.equal(setCookie(response, 'refresh_token')!.value, response.body().refreshToken)

    // Single use: the login token is spent.
    const reuse = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken, totp: previousCode })
    reuse.assertStatus(401)
    reuse.assertBody({ statusCode: 401, message: 'Invalid login token', error: 'Unauthorized' })

    // A new login token with the same code: replay refused.
    const second = await loginTokenFor(client, user.username)
    const replay = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken: second, totp: previousCode })
    replay.assertStatus(400)
    replay.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    // The current code still works with that token (it was not spent by the wrong code).
    await awayFromTotpStepEnd()
    const current = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken: second, totp: await totpCode(secret) })
    current.assertStatus(200)
  })

  test('answers 401 for an unknown login token and 401 token_expired for an expired one', async ({
    client,
  }) => {
    const { user, secret } = await userWithTotp(client)
    const unknown = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken: 'nope', totp: '123456' })
    unknown.assertStatus(401)
    unknown.assertBody({ statusCode: 401, message: 'Invalid login token', error: 'Unauthorized' })

    const loginToken = await loginTokenFor(client, user.username)
    await LoginToken.query()
      .where('tokenHash', hashToken(loginToken))
      .update({ expiresAt: DateTime.utc().minus({ seconds: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    const expired = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken, totp: await totpCode(secret, Math.floor(Date.now() / 1000) + PERIOD) })
    expired.assertStatus(401)
    expired.assertBody({ statusCode: 401, message: 'Login token expired', error: 'token_expired' })
  })

  test('login tokens live 5 minutes and are stored as digests', async ({ client, assert }) => {
    const { user } = await userWithTotp(client)
    const loginToken = await loginTokenFor(client, user.username)
    const row = await LoginToken.findByOrFail('tokenHash', hashToken(loginToken))
    assert.closeTo(row.expiresAt.diffNow('seconds').seconds, 300, 5)
    assert.isNull(await LoginToken.findBy('tokenHash', loginToken))
  })

  test('answers 400 for a wrong code and validates the body', async ({ client, assert }) => {
    const { user } = await userWithTotp(client)
    const loginToken = await loginTokenFor(client, user.username)
    const wrong = await client.post('/api/auth/signIn/totp').json({ loginToken, totp: '000000x' })
    wrong.assertStatus(400)
    wrong.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    const missing = await client.post('/api/auth/signIn/totp').json({})
    missing.assertStatus(400)
    assert.sameMembers(missing.body().message, [
      'totp should not be empty',
      'loginToken should not be empty',
    ])
  })
})
