import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import RefreshToken from '#models/refresh_token'
import app from '@adonisjs/core/services/app'
import AccessTokenService from '#services/auth/access_token_service'
import { registerSignOutRedirect } from '#services/auth/sign_out_redirect'
import { createUser, sessionCookie, sessionFor, setCookie } from '#tests/helpers/auth'

const accessTokenService = await app.container.make(AccessTokenService)

test.group('Auth | refresh (POST /api/auth/token)', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('answers a new access token and rotates the refresh token', async ({ client, assert }) => {
    const user = await createUser()
    const session = await sessionFor(user)

    const response = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), ['accessToken'])
    const claims = await accessTokenService.verify(response.body().accessToken)
    assert.equal(claims!.sub, user.id)
    assert.equal(claims!.refreshTokenId, session.refreshTokenId)

    const access = setCookie(response, 'access_token')!
    assert.equal(access.value, response.body().accessToken)
    assert.equal(access.attributes.path, '/')
    const rotated = setCookie(response, 'refresh_token')!
    assert.notEqual(rotated.value, session.refreshToken)
    assert.equal(rotated.attributes.path, '/api/auth/token')
    assert.isTrue(rotated.attributes.httponly)

    // The old refresh token is used up; the new one works (once).
    const replay = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
    replay.assertStatus(401)
    const next = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${rotated.value}`)
    next.assertStatus(200)
    const again = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${rotated.value}`)
    again.assertStatus(401)

    const me = await client
      .get('/api/users/me')
      .header('Cookie', `access_token=${next.body().accessToken}`)
    me.assertStatus(200)
  })

  test('answers 401 when the refresh token is missing, unknown or expired', async ({ client }) => {
    const missing = await client.post('/api/auth/token')
    missing.assertStatus(401)
    missing.assertBody({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })

    const unknown = await client
      .post('/api/auth/token')
      .header('Cookie', 'refresh_token=not-a-real-token')
    unknown.assertStatus(401)

    const session = await sessionFor(await createUser())
    await RefreshToken.query()
      .where('id', session.refreshTokenId)
      .update({ expiresAt: DateTime.utc().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    const expired = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
    expired.assertStatus(401)
  })
})

test.group('Auth | sign-out', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('revokes the session, clears both cookies and answers 201 without body', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const session = await sessionFor(user)
    const other = await sessionFor(user)

    const response = await client.post('/api/auth/signOut').header('Cookie', sessionCookie(session))
    response.assertStatus(201)
    assert.equal(response.text(), '')

    const access = setCookie(response, 'access_token')!
    const refresh = setCookie(response, 'refresh_token')!
    assert.equal(access.value, '')
    assert.equal(access.attributes.path, '/')
    assert.equal(refresh.value, '')
    assert.equal(refresh.attributes.path, '/api/auth/token')
    assert.equal(Number(access.attributes['max-age'] ?? 0), 0)

    assert.isNull(await RefreshToken.find(session.refreshTokenId))
    const me = await client.get('/api/users/me').header('Cookie', sessionCookie(session))
    me.assertStatus(401)
    const refreshAfter = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
    refreshAfter.assertStatus(401)

    // Other sessions of the user are untouched.
    const otherMe = await client.get('/api/users/me').header('Cookie', sessionCookie(other))
    otherMe.assertStatus(200)
  })

  test('revokes the session of an expired access token too', async ({ client, assert }) => {
    const user = await createUser()
    const session = await sessionFor(user)
    const stale = await accessTokenService.sign(user, session.refreshTokenId, {
      issuedAt: Math.floor(Date.now() / 1000) - 3600,
    })
    const response = await client
      .post('/api/auth/signOut')
      .header('Cookie', `access_token=${stale}`)
    response.assertStatus(201)
    assert.isNull(await RefreshToken.find(session.refreshTokenId))
  })

  test('answers 201 without any session', async ({ client }) => {
    const response = await client.post('/api/auth/signOut')
    response.assertStatus(201)
  })

  test('answers {redirectURI} when a sign-out redirect applies to the session', async ({
    client,
    assert,
    cleanup,
  }) => {
    cleanup(
      registerSignOutRedirect(async (session) =>
        session.oauthIdToken ? `https://idp.example.com/logout?hint=${session.oauthIdToken}` : null
      )
    )
    const user = await createUser()
    const plain = await sessionFor(user)
    const oidc = await sessionFor(user)
    await RefreshToken.query().where('id', oidc.refreshTokenId).update({ oauthIdToken: 'id-token' })

    const withoutRedirect = await client
      .post('/api/auth/signOut')
      .header('Cookie', sessionCookie(plain))
    assert.equal(withoutRedirect.text(), '')
    const withRedirect = await client
      .post('/api/auth/signOut')
      .header('Cookie', sessionCookie(oidc))
    withRedirect.assertStatus(201)
    withRedirect.assertBody({ redirectURI: 'https://idp.example.com/logout?hint=id-token' })
  })
})

test.group('Auth | cross-site requests', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('refuses cookie sign-out and refresh from another site', async ({ client }) => {
    const session = await sessionFor(await createUser())
    const signOut = await client
      .post('/api/auth/signOut')
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'https://evil.example')
    signOut.assertStatus(403)
    const refresh = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
      .header('Sec-Fetch-Site', 'cross-site')
    refresh.assertStatus(403)

    // Same-site and header-less requests work.
    const sameOrigin = await client
      .post('/api/auth/token')
      .header('Cookie', `refresh_token=${session.refreshToken}`)
      .header('Origin', 'http://localhost:3000')
    sameOrigin.assertStatus(200)
  })

  test('refuses cookie-authenticated mutations from another site, but not Bearer ones', async ({
    client,
  }) => {
    const user = await createUser()
    const session = await sessionFor(user)
    const byCookie = await client
      .patch('/api/users/me')
      .header('Cookie', sessionCookie(session))
      .header('Origin', 'https://evil.example')
      .json({ username: 'renamed' })
    byCookie.assertStatus(403)

    const byBearer = await client
      .patch('/api/users/me')
      .header('Authorization', `Bearer ${session.accessToken}`)
      .header('Origin', 'https://evil.example')
      .json({ username: 'renamed' })
    byBearer.assertStatus(200)

    const read = await client
      .get('/api/users/me')
      .header('Cookie', sessionCookie(session))
      .header('Sec-Fetch-Site', 'cross-site')
    read.assertStatus(200)
  })
})

test.group(
  'Auth | an access token of a session (one query for the session and its user)',
  (group) => {
    group.each.setup(() => testUtils.db().withGlobalTransaction())

    test("names its user while the session lives, nobody once it is revoked, expired or not the user's", async ({
      client,
      assert,
    }) => {
      const user = await createUser()
      const other = await createUser()
      const session = await sessionFor(user)
      const me = () => client.get('/api/users/me').header('Cookie', sessionCookie(session))

      const live = await me()
      live.assertStatus(200)
      assert.equal(live.body().id, user.id)
      // Bearer too (the same check).
      const bearer = await client
        .get('/api/users/me')
        .header('Authorization', `Bearer ${session.accessToken}`)
      bearer.assertStatus(200)

      // Signed for this user but with another user's session: refused.
      const otherSession = await sessionFor(other)
      const crossed = await accessTokenService.sign(user, otherSession.refreshTokenId)
      ;(await client.get('/api/users/me').header('Cookie', `access_token=${crossed}`)).assertStatus(
        401
      )

      await RefreshToken.query()
        .where('id', session.refreshTokenId)
        .update({ expiresAt: DateTime.utc().minus({ minutes: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
      ;(await me()).assertStatus(401)

      await RefreshToken.query()
        .where('id', session.refreshTokenId)
        .update({ expiresAt: DateTime.utc().plus({ minutes: 10 }).toFormat('yyyy-MM-dd HH:mm:ss') })
      ;(await me()).assertStatus(200)

      await RefreshToken.query().where('id', session.refreshTokenId).delete()
      ;(await me()).assertStatus(401)
    })

    test('an access token issued outside a session names its user while the user exists', async ({
      client,
      assert,
    }) => {
      const user = await createUser()
      const token = await accessTokenService.sign(user)
      const found = await client.get('/api/users/me').header('Cookie', `access_token=${token}`)
      found.assertStatus(200)
      assert.equal(found.body().id, user.id)
      await user.delete()
      ;(await client.get('/api/users/me').header('Cookie', `access_token=${token}`)).assertStatus(
        401
      )
    })
  }
)
