import hash from '@adonisjs/core/services/hash'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#models/user'
import RefreshToken from '#models/refresh_token'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import AccessTokenService from '#services/auth/access_token_service'
import { hashToken } from '#services/auth/tokens'
import { createUser, setCookie } from '#tests/helpers/auth'

const accessTokenService = await app.container.make(AccessTokenService)
const configService = await app.container.make(ConfigService)

const USER_KEYS = ['id', 'username', 'email', 'isAdmin', 'totpVerified', 'hasPassword']

test.group('Auth | sign-up', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the first user becomes admin and gets a session with both cookies', async ({
    client,
    assert,
  }) => {
    const response = await client
      .post('/api/auth/signUp')
      .json({ email: 'first@example.com', username: 'first.user', password: 'password123' })

    response.assertStatus(201)
    const body = response.body()
    assert.sameMembers(Object.keys(body), ['accessToken', 'refreshToken', 'user'])
    assert.sameMembers(Object.keys(body.user), USER_KEYS)
    assert.deepInclude(body.user, {
      username: 'first.user',
      email: 'first@example.com',
      isAdmin: true,
      totpVerified: false,
      hasPassword: true,
    })

    const claims = await accessTokenService.verify(body.accessToken)
    assert.equal(claims!.sub, body.user.id)
    assert.equal(claims!.email, 'first@example.com')
    assert.isTrue(claims!.isAdmin)
    assert.equal(claims!.exp - claims!.iat, 15 * 60)
    const session = await RefreshToken.findOrFail(claims!.refreshTokenId)
    assert.equal(session.tokenHash, hashToken(body.refreshToken))
    assert.notEqual(session.tokenHash, body.refreshToken)

    const access = setCookie(response, 'access_token')!
    assert.equal(access.value, body.accessToken)
    assert.equal(access.attributes.path, '/')
    assert.equal(String(access.attributes.samesite).toLowerCase(), 'lax')
    assert.notProperty(access.attributes, 'httponly')
    assert.notProperty(access.attributes, 'secure')
    const refresh = setCookie(response, 'refresh_token')!
    assert.equal(refresh.value, body.refreshToken)
    assert.equal(refresh.attributes.path, '/api/auth/token')
    assert.equal(String(refresh.attributes.samesite).toLowerCase(), 'strict')
    assert.isTrue(refresh.attributes.httponly)
    // Lives as long as general.sessionDuration (3 months by default).
    assert.closeTo(Number(refresh.attributes['max-age']), 90 * 24 * 3600, 3 * 24 * 3600)

    const me = await client
      .get('/api/users/me')
      .header('Cookie', `access_token=${body.accessToken}`)
    me.assertStatus(200)
    assert.equal(me.body().id, body.user.id)
  })

  test('later users are not admins', async ({ client, assert }) => {
    await createUser({ admin: true })
    const response = await client
      .post('/api/auth/signUp')
      .json({ email: 'second@example.com', username: 'second', password: 'password123' })
    response.assertStatus(201)
    assert.isFalse(response.body().user.isAdmin)
    assert.isFalse((await User.findByOrFail('username', 'second')).isAdmin)
  })

  test('cookies are Secure when general.secureCookies is on', async ({ client, assert }) => {
    await configService.update([{ key: 'general.secureCookies', value: true }])
    const response = await client
      .post('/api/auth/signUp')
      .json({ email: 'secure@example.com', username: 'secure', password: 'password123' })
    response.assertStatus(201)
    assert.isTrue(setCookie(response, 'access_token')!.attributes.secure)
    assert.isTrue(setCookie(response, 'refresh_token')!.attributes.secure)
  })

  test('answers 403 when registration is not allowed', async ({ client, assert }) => {
    await configService.update([{ key: 'share.allowRegistration', value: false }])
    const response = await client
      .post('/api/auth/signUp')
      .json({ email: 'nope@example.com', username: 'nope', password: 'password123' })
    response.assertStatus(403)
    response.assertBody({
      statusCode: 403,
      message: 'Registration is not allowed',
      error: 'Forbidden',
    })
    assert.isNull(await User.findBy('username', 'nope'))
  })

  test('validates username, e-mail and password with field-named messages', async ({
    client,
    assert,
  }) => {
    const response = await client
      .post('/api/auth/signUp')
      .json({ email: 'not-an-email', username: 'a b', password: 'short' })
    response.assertStatus(400)
    assert.equal(response.body().error, 'Bad Request')
    assert.sameMembers(response.body().message, [
      'email must be an email',
      'Username can only contain letters, numbers, dots, and underscores',
      'password must be longer than or equal to 8 characters',
    ])

    const tooShort = await client
      .post('/api/auth/signUp')
      .json({ email: 'a@example.com', username: 'ab', password: 'password123' })
    tooShort.assertStatus(400)
    assert.deepEqual(tooShort.body().message, [
      'username must be longer than or equal to 3 characters',
    ])

    const tooLong = await client
      .post('/api/auth/signUp')
      .json({ email: 'a@example.com', username: 'a'.repeat(33), password: 'password123' })
    assert.deepEqual(tooLong.body().message, [
      'username must be shorter than or equal to 32 characters',
    ])

    const missing = await client.post('/api/auth/signUp').json({})
    missing.assertStatus(400)
    assert.lengthOf(missing.body().message, 3)
  })

  test('refuses an e-mail address or username that exists, ignoring case', async ({ client }) => {
    await createUser({ username: 'taken', email: 'taken@example.com' })
    const email = await client
      .post('/api/auth/signUp')
      .json({ email: 'TAKEN@example.com', username: 'fresh', password: 'password123' })
    email.assertStatus(400)
    email.assertBody({
      statusCode: 400,
      message: 'A user with this email already exists',
      error: 'Bad Request',
    })

    const username = await client
      .post('/api/auth/signUp')
      .json({ email: 'fresh@example.com', username: 'Taken', password: 'password123' })
    username.assertStatus(400)
    username.assertBody({
      statusCode: 400,
      message: 'A user with this username already exists',
      error: 'Bad Request',
    })
  })
})

test.group('Auth | sign-in', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('signs in by username with both cookies', async ({ client, assert }) => {
    const user = await createUser({ username: 'alice', password: 'password123' })
    const response = await client
      .post('/api/auth/signIn')
      .json({ username: 'alice', password: 'password123' })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), ['accessToken', 'refreshToken'])
    assert.equal(setCookie(response, 'access_token')!.value, response.body().accessToken)
    assert.equal(setCookie(response, 'refresh_token')!.value, response.body().refreshToken)
    assert.equal((await accessTokenService.verify(response.body().accessToken))!.sub, user.id)
  })

  test('signs in by e-mail, ignoring case, also when the e-mail comes as username', async ({
    client,
  }) => {
    await createUser({ username: 'bob', email: 'Bob@Example.com', password: 'password123' })
    const byEmail = await client
      .post('/api/auth/signIn')
      .json({ email: 'bob@example.com', password: 'password123' })
    byEmail.assertStatus(200)
    const asUsername = await client
      .post('/api/auth/signIn')
      .json({ username: 'bob@example.com', password: 'password123' })
    asUsername.assertStatus(200)
  })

  test('answers 400 when neither e-mail nor username is given', async ({ client }) => {
    const response = await client.post('/api/auth/signIn').json({ password: 'password123' })
    response.assertStatus(400)
    response.assertBody({
      statusCode: 400,
      message: 'Email or username is required',
      error: 'Bad Request',
    })
  })

  test('validates the password field', async ({ client, assert }) => {
    const response = await client.post('/api/auth/signIn').json({ username: 'alice' })
    response.assertStatus(400)
    assert.deepEqual(response.body().message, ['password should not be empty'])
  })

  test('answers the same 401 for a wrong password, an unknown user and a user without password', async ({
    client,
    assert,
  }) => {
    await createUser({ username: 'carol', password: 'password123' })
    await createUser({ username: 'social', password: null })
    const expected = { statusCode: 401, message: 'Wrong email or password', error: 'Unauthorized' }

    const wrong = await client
      .post('/api/auth/signIn')
      .json({ username: 'carol', password: 'wrong-password' })
    wrong.assertStatus(401)
    wrong.assertBody(expected)
    const unknown = await client
      .post('/api/auth/signIn')
      .json({ username: 'nobody', password: 'password123' })
    unknown.assertStatus(401)
    unknown.assertBody(expected)
    const unknownEmail = await client
      .post('/api/auth/signIn')
      .json({ email: 'nobody@example.com', password: 'password123' })
    unknownEmail.assertBody(expected)
    const noPassword = await client
      .post('/api/auth/signIn')
      .json({ username: 'social', password: 'password123' })
    noPassword.assertBody(expected)
    assert.isUndefined(setCookie(wrong, 'access_token'))
  })

  test('an unknown user costs the same password hash verification as a wrong password', async ({
    client,
    assert,
  }) => {
    await createUser({ username: 'timing', password: 'password123' })
    /** Counts scrypt verifications: a cheap reply for unknown users would reveal who exists. */
    const original = hash.verify.bind(hash)
    let verifications = 0
    hash.verify = async (hashed: string, plain: string) => {
      verifications++
      return original(hashed, plain)
    }
    try {
      const known = await client
        .post('/api/auth/signIn')
        .json({ username: 'timing', password: 'wrong-password' })
      known.assertStatus(401)
      assert.equal(verifications, 1)
      const unknown = await client
        .post('/api/auth/signIn')
        .json({ username: 'nobody-here', password: 'wrong-password' })
      unknown.assertStatus(401)
      assert.equal(verifications, 2)
      assert.deepEqual(unknown.body(), known.body())
    } finally {
      hash.verify = original
    }
  })

  test('with TOTP on, answers only a login token and sets no cookie', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ username: 'dave', password: 'password123' })
    user.totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    user.totpVerified = true
    await user.save()

    const response = await client
      .post('/api/auth/signIn')
      .json({ username: 'dave', password: 'password123' })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), ['loginToken'])
    assert.isString(response.body().loginToken)
    assert.isUndefined(setCookie(response, 'access_token'))
    assert.isUndefined(setCookie(response, 'refresh_token'))
  })
})
