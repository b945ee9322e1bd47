import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { DateTime } from 'luxon'
import ApiToken from '#models/api_token'
import { hashToken } from '#services/auth/tokens'
import { authHeaderFor, createUser, sessionCookie, sessionFor } from '#tests/helpers/auth'

const VIEW_KEYS = ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'expiresAt']

test.group('Users | personal API tokens', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('creates a token shown once and stored as a digest', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(user)))
      .json({ name: 'CI upload' })
    response.assertStatus(201)
    const body = response.body()
    assert.sameMembers(Object.keys(body), [...VIEW_KEYS, 'token'])
    assert.match(body.token, /^tern_[A-Za-z0-9_-]{43}$/)
    assert.equal(body.name, 'CI upload')
    assert.isTrue(body.token.startsWith(body.prefix))
    assert.isNull(body.expiresAt)
    assert.isNull(body.lastUsedAt)

    const row = await ApiToken.findOrFail(body.id)
    assert.equal(row.tokenHash, hashToken(body.token))
    assert.notInclude(JSON.stringify(row.serialize()), body.token)

    const list = await client.get('/api/users/me/apiTokens').header(...(await authHeaderFor(user)))
    list.assertStatus(200)
    assert.lengthOf(list.body(), 1)
    assert.sameMembers(Object.keys(list.body()[0]), VIEW_KEYS)
    assert.notInclude(list.text(), body.token)
  })

  test('a name the user already gave a token is refused with 409 and a message; another user may take it', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const create = async (who: typeof user, name: string) =>
      client
        .post('/api/users/me/apiTokens')
        .header(...(await authHeaderFor(who)))
        .json({ name })
    ;(await create(user, 'Backup script')).assertStatus(201)
    for (const name of ['Backup script', '  backup SCRIPT  ']) {
      const refused = await create(user, name)
      refused.assertStatus(409)
      assert.equal(refused.body().message, 'An API token with this name already exists')
    }
    assert.equal(
      (await ApiToken.query().where('userId', user.id)).length,
      1,
      'nothing stored for the refusals'
    )
    ;(await create(user, 'Backup script 2')).assertStatus(201)
    ;(await create(await createUser(), 'Backup script')).assertStatus(201)
  })

  test('a token authenticates user and admin routes as Bearer and records its use', async ({
    client,
    assert,
  }) => {
    const admin = await createUser({ admin: true })
    const created = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(admin)))
      .json({ name: 'script', expiresAt: DateTime.utc().plus({ days: 1 }).toISO() })
    created.assertStatus(201)
    const token = created.body().token

    const me = await client.get('/api/users/me').header('Authorization', `Bearer ${token}`)
    me.assertStatus(200)
    assert.equal(me.body().id, admin.id)
    ;(await client.get('/api/users').header('Authorization', `Bearer ${token}`)).assertStatus(200)
    // Not subject to the cross-site cookie check.
    const patch = await client
      .patch('/api/users/me')
      .header('Authorization', `Bearer ${token}`)
      .header('Origin', 'https://elsewhere.example')
      .json({ username: 'scripted' })
    patch.assertStatus(200)

    const row = await ApiToken.findOrFail(created.body().id)
    assert.isNotNull(row.lastUsedAt)
    assert.isAbove(row.expiresAt!.toMillis(), Date.now())
  })

  test('a revoked token is refused with 401', async ({ client, assert }) => {
    const user = await createUser()
    const session = await sessionFor(user)
    const created = await client
      .post('/api/users/me/apiTokens')
      .header('Cookie', sessionCookie(session))
      .json({ name: 'temp' })
    const token = created.body().token
    ;(await client.get('/api/users/me').header('Authorization', `Bearer ${token}`)).assertStatus(
      200
    )

    const revoke = await client
      .delete(`/api/users/me/apiTokens/${created.body().id}`)
      .header('Cookie', sessionCookie(session))
    revoke.assertStatus(204)
    assert.isNull(await ApiToken.find(created.body().id))

    const refused = await client.get('/api/users/me').header('Authorization', `Bearer ${token}`)
    refused.assertStatus(401)
    refused.assertBody({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  })

  test('an expired token is refused with 401', async ({ client }) => {
    const user = await createUser()
    const created = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(user)))
      .json({ name: 'short-lived', expiresAt: DateTime.utc().plus({ hours: 1 }).toISO() })
    await ApiToken.query()
      .where('id', created.body().id)
      .update({ expiresAt: DateTime.utc().minus({ seconds: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') })
    const response = await client
      .get('/api/users/me')
      .header('Authorization', `Bearer ${created.body().token}`)
    response.assertStatus(401)
    ;(
      await client.get('/api/users/me').header('Authorization', 'Bearer tern_made-up')
    ).assertStatus(401)
  })

  test('tokens of other users cannot be revoked; bad bodies are refused', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const other = await createUser()
    const created = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(owner)))
      .json({ name: 'mine' })
    const response = await client
      .delete(`/api/users/me/apiTokens/${created.body().id}`)
      .header(...(await authHeaderFor(other)))
    response.assertStatus(404)
    response.assertBody({ statusCode: 404, message: 'API token not found', error: 'Not Found' })
    assert.isNotNull(await ApiToken.find(created.body().id))

    const past = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(owner)))
      .json({ name: 'old', expiresAt: '2000-01-01T00:00:00Z' })
    past.assertStatus(400)
    assert.deepEqual(past.body().message, ['expiresAt must be in the future'])
    const noName = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(owner)))
      .json({ name: '   ' })
    noName.assertStatus(400)
    ;(await client.get('/api/users/me/apiTokens')).assertStatus(401)
  })

  test('only the owner revokes a token (ApiTokenPolicy): not even an admin; unknown ids are 404 alike', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const admin = await createUser({ admin: true })
    const { id } = (
      await client
        .post('/api/users/me/apiTokens')
        .header(...(await authHeaderFor(owner)))
        .json({ name: 'mine' })
    ).body()
    const refusals: [typeof owner, string][] = [
      [admin, id],
      [owner, '00000000-0000-4000-8000-000000000000'],
    ]
    for (const [caller, tokenId] of refusals) {
      const refused = await client
        .delete(`/api/users/me/apiTokens/${tokenId}`)
        .header(...(await authHeaderFor(caller)))
      refused.assertStatus(404)
      refused.assertBody({ statusCode: 404, message: 'API token not found', error: 'Not Found' })
    }
    assert.isNotNull(await ApiToken.find(id))

    ;(
      await client.delete(`/api/users/me/apiTokens/${id}`).header(...(await authHeaderFor(owner)))
    ).assertStatus(204)
    assert.isNull(await ApiToken.find(id))
  })
})
