/**
 * The routes the admin panel calls: every one refuses visitors (401) and
 * signed-in users who are not admins (403) before looking at the body, and
 * the panel's flows work for an admin (users, configuration, shares).
 */
import { test } from '@japa/runner'
import type { ApiClient, ApiRequest } from '@japa/api-client'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#models/user'
import Share from '#models/share'
import { storage } from '#extensions/storage/main'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'
import { useSmtp, smtpServerPerGroup } from '#tests/helpers/smtp_server'
import { shareWithStoredFile } from '#tests/functional/users/share_fixtures'

const configService = await app.container.make(ConfigService)

const UNKNOWN_ID = '00000000-0000-0000-0000-000000000000'

/** Every admin-only route of the panel, with a body an admin could send. */
const ADMIN_ROUTES: { method: 'get' | 'post' | 'patch' | 'delete'; path: string; body?: object }[] =
  [
    { method: 'get', path: '/api/users' },
    {
      method: 'post',
      path: '/api/users',
      body: { username: 'nobody', email: 'nobody@example.com', password: 'password123' },
    },
    { method: 'patch', path: `/api/users/${UNKNOWN_ID}`, body: { isAdmin: true } },
    { method: 'delete', path: `/api/users/${UNKNOWN_ID}` },
    { method: 'get', path: '/api/configs/admin' },
    { method: 'get', path: '/api/configs/admin/general' },
    { method: 'get', path: '/api/configs/admin/fixture' },
    { method: 'get', path: '/api/configs/admin/version' },
    { method: 'patch', path: '/api/configs/admin', body: [{ key: 'share.maxSize', value: 5 }] },
    {
      method: 'post',
      path: '/api/configs/admin/testEmail',
      body: { email: 'someone@example.com' },
    },
    { method: 'post', path: '/api/configs/admin/finishSetup' },
    { method: 'post', path: '/api/configs/admin/logo' },
    { method: 'delete', path: '/api/configs/admin/logo' },
    { method: 'get', path: '/api/shares/all' },
    { method: 'get', path: '/api/admin/plugins' },
  ]

/** The request of one route, with its body when it has one. */
function requestOf(client: ApiClient, route: (typeof ADMIN_ROUTES)[number]): ApiRequest {
  const request: ApiRequest = client[route.method](route.path)
  return route.body === undefined ? request : request.json(route.body)
}

test.group('Admin | access', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a visitor gets 401 "Unauthorized" on every admin route', async ({ client, assert }) => {
    for (const route of ADMIN_ROUTES) {
      const response = await requestOf(client, route)
      assert.equal(response.status(), 401, `${route.method} ${route.path}`)
      assert.deepEqual(response.body(), {
        statusCode: 401,
        message: 'Unauthorized',
        error: 'Unauthorized',
      })
    }
  })

  test('a signed-in user who is not an admin gets 403 "Forbidden" on every admin route', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const header = await authHeaderFor(user)
    for (const route of ADMIN_ROUTES) {
      const response = await requestOf(client, route).header(...header)
      assert.equal(response.status(), 403, `${route.method} ${route.path}`)
      assert.deepEqual(response.body(), {
        statusCode: 403,
        message: 'Forbidden',
        error: 'Forbidden',
      })
    }
    assert.isNull(await User.findBy('username', 'nobody'))
    assert.strictEqual(await configService.get('share.maxSize'), 1000000000)
    assert.strictEqual(await configService.get('internal.setupFinished'), false)
  })

  test('an admin reaches every read route of the panel by cookie', async ({ client }) => {
    const cookie = await accessCookieFor(await createUser({ admin: true }))
    await configService.update([{ key: 'general.checkForUpdates', value: false }])
    for (const path of [
      '/api/users',
      '/api/configs/admin',
      '/api/configs/admin/general',
      '/api/configs/admin/version',
      '/api/shares/all',
      '/api/admin/plugins',
    ]) {
      ;(await client.get(path).header('Cookie', cookie)).assertStatus(200)
    }
  })
})

test.group('Admin | users flows', (group) => {
  const smtp = smtpServerPerGroup(group)

  test('create with a password, grant admin, change the password, then delete', async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const created = await client
      .post('/api/users')
      .header(...header)
      .json({ username: 'panel.user', email: 'panel.user@example.com', password: 'password123' })
    created.assertStatus(201)
    assert.deepInclude(created.body(), {
      username: 'panel.user',
      isAdmin: false,
      hasPassword: true,
    })
    const id = created.body().id

    const listed = await client.get('/api/users').header(...header)
    assert.include(
      listed.body().map((user: { id: string }) => user.id),
      id
    )

    const promoted = await client
      .patch(`/api/users/${id}`)
      .header(...header)
      .json({ isAdmin: true, password: 'changed-by-admin' })
    promoted.assertStatus(200)
    assert.isTrue(promoted.body().isAdmin)
    ;(
      await client
        .post('/api/auth/signIn')
        .json({ username: 'panel.user', password: 'changed-by-admin' })
    ).assertStatus(200)
    ;(
      await client
        .post('/api/auth/signIn')
        .json({ username: 'panel.user', password: 'password123' })
    ).assertStatus(401)

    const deleted = await client.delete(`/api/users/${id}`).header(...header)
    deleted.assertStatus(200)
    assert.equal(deleted.body().id, id)
    assert.isNull(await User.find(id))
  })

  test('an invitation (no password) is 400 while mail is off, and mailed once SMTP is set up', async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const refused = await client
      .post('/api/users')
      .header(...header)
      .json({ username: 'invitee', email: 'invitee@example.com' })
    refused.assertStatus(400)
    assert.equal(refused.body().message, 'SMTP is disabled')
    assert.isNull(await User.findBy('username', 'invitee'))

    await useSmtp(smtp.port)
    const invited = await client
      .post('/api/users')
      .header(...header)
      .json({ username: 'invitee', email: 'invitee@example.com' })
    invited.assertStatus(201)
    const mail = await smtp.waitForMessage()
    const to = Array.isArray(mail.to)
      ? mail.to.map((address) => address.text).join(', ')
      : mail.to?.text
    assert.equal(to, 'invitee@example.com')
  })

  test('the last admin cannot be deleted, another admin can', async ({ client, assert }) => {
    const admin = await createUser({ admin: true })
    const header = await authHeaderFor(admin)
    const refused = await client.delete(`/api/users/${admin.id}`).header(...header)
    refused.assertStatus(400)
    refused.assertBody({
      statusCode: 400,
      message: 'Cannot delete the last admin user',
      error: 'Bad Request',
    })

    const other = await createUser({ admin: true })
    ;(await client.delete(`/api/users/${other.id}`).header(...header)).assertStatus(200)
    assert.isNull(await User.find(other.id))
  })
})

test.group('Admin | shares', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET /api/shares/all lists shares of every user as admin share objects', async ({
    client,
    assert,
  }) => {
    const owner = await createUser({ username: 'share.owner' })
    const { share } = await shareWithStoredFile({ creatorId: owner.id })
    const response = await client
      .get('/api/shares/all')
      .header(...(await authHeaderFor(await createUser({ admin: true }))))
    response.assertStatus(200)
    const item = response.body().find((entry: { id: string }) => entry.id === share.id)
    assert.containsSubset(item, {
      id: share.id,
      size: 5,
      views: 0,
      creator: { username: 'share.owner' },
    })
    assert.properties(item, ['name', 'expiration', 'description', 'createdAt'])
  })

  test("an admin deletes another user's share with its files; a non-owner cannot", async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const { share, file, disk } = await shareWithStoredFile({ creatorId: owner.id })
    const stranger = await createUser()
    ;(
      await client.delete(`/api/shares/${share.id}`).header(...(await authHeaderFor(stranger)))
    ).assertStatus(403)
    assert.isNotNull(await Share.find(share.id))

    const response = await client
      .delete(`/api/shares/${share.id}`)
      .header(...(await authHeaderFor(await createUser({ admin: true }))))
    response.assertStatus(200)
    assert.isNull(await Share.find(share.id))
    assert.isFalse(await storage.use(disk).exists(file.storageKey))
  })

  test('an admin deletes an anonymous share; a signed-in user gets 403', async ({
    client,
    assert,
  }) => {
    const { share } = await shareWithStoredFile({ creatorId: null })
    const refused = await client
      .delete(`/api/shares/${share.id}`)
      .header(...(await authHeaderFor(await createUser())))
    refused.assertStatus(403)
    assert.equal(refused.body().message, "Anonymous shares can't be deleted")
    ;(
      await client
        .delete(`/api/shares/${share.id}`)
        .header(...(await authHeaderFor(await createUser({ admin: true }))))
    ).assertStatus(200)
    assert.isNull(await Share.find(share.id))
  })
})
