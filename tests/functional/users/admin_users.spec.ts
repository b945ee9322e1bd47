import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#models/user'
import Share from '#models/share'
import { storage } from '#extensions/storage/main'
import { useSmtp, smtpServerPerGroup } from '#tests/helpers/smtp_server'
import { authHeaderFor, createUser, sessionCookie, sessionFor } from '#tests/helpers/auth'
import { shareWithStoredFile } from '#tests/functional/users/share_fixtures'

const USER_KEYS = ['id', 'username', 'email', 'isAdmin', 'totpVerified', 'hasPassword']

async function adminHeader() {
  return authHeaderFor(await createUser({ admin: true }))
}

test.group('Users | admin list and access', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET /api/users lists every user as public objects', async ({ client, assert }) => {
    const header = await adminHeader()
    const user = await createUser({ username: 'listed' })
    const response = await client.get('/api/users').header(...header)
    response.assertStatus(200)
    assert.isArray(response.body())
    assert.lengthOf(response.body(), 2)
    for (const item of response.body()) assert.sameMembers(Object.keys(item), USER_KEYS)
    assert.include(
      response.body().map((item: { id: string }) => item.id),
      user.id
    )
  })

  test('answers 401 without a session and 403 for a non-admin, before the body', async ({
    client,
  }) => {
    const user = await createUser()
    ;(await client.get('/api/users')).assertStatus(401)
    const forbidden = await client.get('/api/users').header(...(await authHeaderFor(user)))
    forbidden.assertStatus(403)
    forbidden.assertBody({ statusCode: 403, message: 'Forbidden', error: 'Forbidden' })
    ;(
      await client
        .post('/api/users')
        .header(...(await authHeaderFor(user)))
        .json({})
    ).assertStatus(403)
    ;(await client.patch(`/api/users/${user.id}`).json({ email: 'x' })).assertStatus(401)
    ;(await client.delete(`/api/users/${user.id}`)).assertStatus(401)
  })
})

test.group('Users | admin create', (group) => {
  const smtp = smtpServerPerGroup(group)

  test('creates a user with a password', async ({ client, assert }) => {
    const response = await client
      .post('/api/users')
      .header(...(await adminHeader()))
      .json({
        username: 'created',
        email: 'created@example.com',
        password: 'password123',
        isAdmin: true,
      })
    response.assertStatus(201)
    assert.sameMembers(Object.keys(response.body()), USER_KEYS)
    assert.deepInclude(response.body(), {
      username: 'created',
      email: 'created@example.com',
      isAdmin: true,
    })
    const signIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'created', password: 'password123' })
    signIn.assertStatus(200)
  })

  test('without a password, refuses when mail is off and creates nothing', async ({
    client,
    assert,
  }) => {
    const response = await client
      .post('/api/users')
      .header(...(await adminHeader()))
      .json({ username: 'invited', email: 'invited@example.com' })
    response.assertStatus(400)
    assert.equal(response.body().error, 'Bad Request')
    assert.match(response.body().message, /SMTP is disabled/)
    assert.isNull(await User.findBy('username', 'invited'))
  })

  test('without a password, mails an invitation with a random password that works', async ({
    client,
    assert,
  }) => {
    await useSmtp(smtp.port, [
      { key: 'general.appUrl', value: 'https://tern.example.com' },
      { key: 'email.inviteMessage', value: 'Sign in at {url} as {email} with {password}' },
    ])
    const response = await client
      .post('/api/users')
      .header(...(await adminHeader()))
      .json({ username: 'invited', email: 'invited@example.com' })
    response.assertStatus(201)
    assert.isFalse(response.body().isAdmin)

    const mail = await smtp.waitForMessage()
    const match = /Sign in at (\S+) as (\S+) with (\S+)/.exec(mail.text ?? '')
    assert.isNotNull(match)
    assert.equal(match![1], 'https://tern.example.com/auth/signIn')
    assert.equal(match![2], 'invited@example.com')
    const signIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'invited', password: match![3] })
    signIn.assertStatus(200)
  })

  test('refuses duplicates and invalid bodies', async ({ client, assert }) => {
    const header = await adminHeader()
    await createUser({ username: 'exists', email: 'exists@example.com' })
    const duplicate = await client
      .post('/api/users')
      .header(...header)
      .json({ username: 'new.one', email: 'EXISTS@example.com', password: 'password123' })
    duplicate.assertStatus(400)
    duplicate.assertBody({
      statusCode: 400,
      message: 'A user with this email already exists',
      error: 'Bad Request',
    })

    const invalid = await client
      .post('/api/users')
      .header(...header)
      .json({ username: 'no spaces', email: 'x', password: 'short', isAdmin: 'yes' })
    invalid.assertStatus(400)
    assert.lengthOf(invalid.body().message, 4)
  })
})

test.group('Users | admin update', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('changes username, e-mail, admin flag and password; a new password ends their sessions', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const user = await createUser({ username: 'before' })
    const session = await sessionFor(user)
    const response = await client
      .patch(`/api/users/${user.id}`)
      .header(...header)
      .json({
        username: 'after',
        email: 'after@example.com',
        isAdmin: true,
        password: 'set-by-admin',
      })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), USER_KEYS)
    assert.deepInclude(response.body(), {
      username: 'after',
      email: 'after@example.com',
      isAdmin: true,
    })

    ;(await client.get('/api/users/me').header('Cookie', sessionCookie(session))).assertStatus(401)
    const signIn = await client
      .post('/api/auth/signIn')
      .json({ username: 'after', password: 'set-by-admin' })
    signIn.assertStatus(200)
  })

  test('an admin changing their own password keeps their session', async ({ client }) => {
    const admin = await createUser({ admin: true })
    const session = await sessionFor(admin)
    const response = await client
      .patch(`/api/users/${admin.id}`)
      .header('Cookie', sessionCookie(session))
      .json({ password: 'my-new-password' })
    response.assertStatus(200)
    ;(await client.get('/api/users/me').header('Cookie', sessionCookie(session))).assertStatus(200)
  })

  test('refuses to demote the last admin, allows it when another admin exists', async ({
    client,
    assert,
  }) => {
    const admin = await createUser({ admin: true })
    const header = await authHeaderFor(admin)
    const refused = await client
      .patch(`/api/users/${admin.id}`)
      .header(...header)
      .json({ isAdmin: false })
    refused.assertStatus(400)
    refused.assertBody({
      statusCode: 400,
      message: 'Cannot remove the admin rights of the last admin user',
      error: 'Bad Request',
    })
    assert.isTrue((await User.findOrFail(admin.id)).isAdmin)

    await createUser({ admin: true })
    const allowed = await client
      .patch(`/api/users/${admin.id}`)
      .header(...header)
      .json({ isAdmin: false })
    allowed.assertStatus(200)
    assert.isFalse(allowed.body().isAdmin)
  })

  test('answers 404 for an unknown id before validating the body, 400 for duplicates', async ({
    client,
  }) => {
    const header = await adminHeader()
    const unknown = await client
      .patch('/api/users/00000000-0000-0000-0000-000000000000')
      .header(...header)
      .json({ email: 'not-an-email' })
    unknown.assertStatus(404)
    unknown.assertBody({ statusCode: 404, message: 'User not found', error: 'Not Found' })

    await createUser({ username: 'taken.name' })
    const user = await createUser()
    const duplicate = await client
      .patch(`/api/users/${user.id}`)
      .header(...header)
      .json({ username: 'taken.name' })
    duplicate.assertStatus(400)
    duplicate.assertBody({
      statusCode: 400,
      message: 'A user with this username already exists',
      error: 'Bad Request',
    })
  })
})

test.group('Users | admin delete', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('answers the deleted user and deletes their shares with their files', async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const user = await createUser({ username: 'leaving' })
    const { share, file, disk } = await shareWithStoredFile({ creatorId: user.id })

    const response = await client.delete(`/api/users/${user.id}`).header(...header)
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), USER_KEYS)
    assert.equal(response.body().id, user.id)
    assert.equal(response.body().username, 'leaving')
    assert.isNull(await User.find(user.id))
    assert.isNull(await Share.find(share.id))
    assert.isFalse(await storage.use(disk).exists(file.storageKey))
  })

  test('answers 400 "User not found" for an unknown id', async ({ client }) => {
    const response = await client
      .delete('/api/users/00000000-0000-0000-0000-000000000000')
      .header(...(await adminHeader()))
    response.assertStatus(400)
    response.assertBody({ statusCode: 400, message: 'User not found', error: 'Bad Request' })
  })

  test('refuses to delete the last admin', async ({ client, assert }) => {
    const admin = await createUser({ admin: true })
    const response = await client
      .delete(`/api/users/${admin.id}`)
      .header(...(await authHeaderFor(admin)))
    response.assertStatus(400)
    response.assertBody({
      statusCode: 400,
      message: 'Cannot delete the last admin user',
      error: 'Bad Request',
    })
    assert.isNotNull(await User.find(admin.id))
  })
})
