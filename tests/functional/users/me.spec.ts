import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import User from '#models/user'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import RefreshToken from '#models/refresh_token'
import ReverseShare from '#models/reverse_share'
import { storage } from '#extensions/storage/main'
import {
  authHeaderFor,
  createUser,
  sessionCookie,
  sessionFor,
  setCookie,
} from '#tests/helpers/auth'
import { shareWithStoredFile } from '#tests/functional/users/share_fixtures'

const USER_KEYS = ['id', 'username', 'email', 'isAdmin', 'totpVerified', 'hasPassword']

test.group('Users | me', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET answers the public user object, never secrets', async ({ client, assert }) => {
    const user = await createUser({ username: 'me.user', email: 'me@example.com' })
    user.merge({
      totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      totpVerified: true,
      totpLastStep: 5,
    })
    await user.save()

    const response = await client.get('/api/users/me').header(...(await authHeaderFor(user)))
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), USER_KEYS)
    response.assertBody({
      id: user.id,
      username: 'me.user',
      email: 'me@example.com',
      isAdmin: false,
      totpVerified: true,
      hasPassword: true,
    })
    assert.notInclude(response.text(), 'JBSWY3DP')
    assert.notInclude(response.text(), user.password!)
  })

  test('answers 401 without a session, and for a deleted user', async ({ client }) => {
    ;(await client.get('/api/users/me')).assertStatus(401)
    const user = await createUser()
    const header = await authHeaderFor(user)
    await user.delete()
    const response = await client.get('/api/users/me').header(...header)
    response.assertStatus(401)
    response.assertBody({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  })

  test('PATCH changes username and e-mail', async ({ client, assert }) => {
    const user = await createUser()
    const response = await client
      .patch('/api/users/me')
      .header(...(await authHeaderFor(user)))
      .json({ username: 'renamed', email: 'renamed@example.com', isAdmin: true })
    response.assertStatus(200)
    assert.sameMembers(Object.keys(response.body()), USER_KEYS)
    assert.deepInclude(response.body(), {
      username: 'renamed',
      email: 'renamed@example.com',
      isAdmin: false,
    })
    const stored = await User.findOrFail(user.id)
    assert.equal(stored.username, 'renamed')
    assert.isFalse(stored.isAdmin)
  })

  test('PATCH refuses duplicates and invalid values', async ({ client, assert }) => {
    await createUser({ username: 'other', email: 'other@example.com' })
    const user = await createUser({ username: 'mine', email: 'mine@example.com' })
    const header = await authHeaderFor(user)

    const email = await client
      .patch('/api/users/me')
      .header(...header)
      .json({ email: 'Other@example.com' })
    email.assertStatus(400)
    email.assertBody({
      statusCode: 400,
      message: 'A user with this email already exists',
      error: 'Bad Request',
    })
    const username = await client
      .patch('/api/users/me')
      .header(...header)
      .json({ username: 'OTHER' })
    username.assertBody({
      statusCode: 400,
      message: 'A user with this username already exists',
      error: 'Bad Request',
    })
    // Keeping one's own values is not a duplicate.
    ;(
      await client
        .patch('/api/users/me')
        .header(...header)
        .json({ username: 'Mine' })
    ).assertStatus(200)

    const invalid = await client
      .patch('/api/users/me')
      .header(...header)
      .json({ email: 'nope', username: 'x' })
    invalid.assertStatus(400)
    assert.sameMembers(invalid.body().message, [
      'email must be an email',
      'username must be longer than or equal to 3 characters',
    ])
  })

  test('PATCH checks the session before the body', async ({ client }) => {
    const response = await client.patch('/api/users/me').json({ email: 'nope' })
    response.assertStatus(401)
  })

  test('DELETE removes the account, its sessions and its shares with their files, and clears cookies', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const bystander = await createUser()
    const session = await sessionFor(user)
    const own = await shareWithStoredFile({ creatorId: user.id })
    const reverseShare = await ReverseShare.create({
      token: `rs-${user.id}`,
      creatorId: user.id,
      maxShareSize: 1000,
    })
    const received = await shareWithStoredFile({ reverseShareId: reverseShare.id })
    const kept = await shareWithStoredFile({ creatorId: bystander.id })

    const response = await client
      .delete('/api/users/me')
      .header('Cookie', sessionCookie(session))
      .json({ password: 'password123' })
    response.assertStatus(204)
    assert.equal(setCookie(response, 'access_token')!.value, '')
    assert.equal(setCookie(response, 'refresh_token')!.value, '')

    assert.isNull(await User.find(user.id))
    assert.isNull(await RefreshToken.find(session.refreshTokenId))
    assert.isNull(await Share.find(own.share.id))
    assert.isNull(await Share.find(received.share.id))
    assert.isNull(await ShareFile.find(own.file.id))
    assert.isFalse(await storage.use(own.disk).exists(own.file.storageKey))
    assert.isFalse(await storage.use(received.disk).exists(received.file.storageKey))

    assert.isNotNull(await Share.find(kept.share.id))
    assert.isTrue(await storage.use(kept.disk).exists(kept.file.storageKey))
    await storage.use(kept.disk).delete(kept.file.storageKey)
  })

  test('DELETE refuses the last admin', async ({ client, assert }) => {
    const admin = await createUser({ admin: true })
    const confirmed = { password: 'password123' }
    const response = await client
      .delete('/api/users/me')
      .header(...(await authHeaderFor(admin)))
      .json(confirmed)
    response.assertStatus(400)
    response.assertBody({
      statusCode: 400,
      message: 'Cannot delete the last admin user',
      error: 'Bad Request',
    })
    assert.isNotNull(await User.find(admin.id))

    await createUser({ admin: true })
    ;(
      await client
        .delete('/api/users/me')
        .header(...(await authHeaderFor(admin)))
        .json(confirmed)
    ).assertStatus(204)
  })

  test('DELETE checks the confirmation it is sent: 403 for a wrong password, 400 for the wrong kind, nothing deleted', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const cookie = sessionCookie(await sessionFor(user))

    const wrong = await client
      .delete('/api/users/me')
      .header('Cookie', cookie)
      .json({ password: 'not-the-password' })
    wrong.assertStatus(403)
    wrong.assertBody({ statusCode: 403, message: 'Invalid password', error: 'Forbidden' })
    // The username is no substitute for the password of a password account.
    const username = await client
      .delete('/api/users/me')
      .header('Cookie', cookie)
      .json({ username: user.username })
    username.assertStatus(400)
    username.assertBody({
      statusCode: 400,
      message: 'Enter your password to delete your account',
      error: 'Bad Request',
    })
    // Malformed confirmations are validation errors, never a 500.
    for (const body of [
      { password: { $ne: '' } },
      { password: ['password123'] },
      { password: 'x'.repeat(5000) },
    ]) {
      const malformed = await client.delete('/api/users/me').header('Cookie', cookie).json(body)
      malformed.assertStatus(400)
      assert.isArray(malformed.body().message)
    }
    assert.isNotNull(await User.find(user.id))

    ;(
      await client
        .delete('/api/users/me')
        .header('Cookie', cookie)
        .json({ password: 'password123' })
    ).assertStatus(204)
    assert.isNull(await User.find(user.id))
  })

  test("DELETE without a body is Pingvin's form (its web client confirms in its own dialog): a session deletes", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const response = await client
      .delete('/api/users/me')
      .header('Cookie', sessionCookie(await sessionFor(user)))
    response.assertStatus(204)
    assert.isNull(await User.find(user.id))
  })

  test('DELETE of a social-only account is confirmed by typing the username', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ password: null, username: 'Social.Only' })
    const header = await authHeaderFor(user)

    const password = await client
      .delete('/api/users/me')
      .header(...header)
      .json({ password: 'password123' })
    password.assertStatus(400)
    password.assertBody({
      statusCode: 400,
      message: 'Enter your username to delete your account',
      error: 'Bad Request',
    })
    const wrong = await client
      .delete('/api/users/me')
      .header(...header)
      .json({ username: 'someone.else' })
    wrong.assertStatus(403)
    wrong.assertBody({
      statusCode: 403,
      message: 'The username does not match',
      error: 'Forbidden',
    })
    assert.isNotNull(await User.find(user.id))

    ;(
      await client
        .delete('/api/users/me')
        .header(...header)
        .json({ username: ' social.only ' })
    ).assertStatus(204)
    assert.isNull(await User.find(user.id))
  })

  test("DELETE with a personal API token keeps Pingvin's body-less form", async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const created = await client
      .post('/api/users/me/apiTokens')
      .header(...(await authHeaderFor(user)))
      .json({ name: 'cleanup script' })
    created.assertStatus(201)

    const response = await client
      .delete('/api/users/me')
      .header('Authorization', `Bearer ${created.body().token}`)
    response.assertStatus(204)
    assert.isNull(await User.find(user.id))
  })
})
