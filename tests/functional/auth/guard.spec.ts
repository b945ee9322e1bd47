import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser } from '#tests/helpers/auth'

/** The `pingvin` guard of @adonisjs/auth (app/auth/guards/pingvin_guard.ts), seen from HTTP. */
test.group('Auth | pingvin guard', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('loginAs(user) of the Japa api client signs requests in as that user', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const response = await client.get('/api/users/me').loginAs(user)
    response.assertStatus(200)
    assert.equal(response.body().id, user.id)
  })

  test('behind the admin middleware, loginAs gives 403 to a user and 200 to an admin', async ({
    client,
  }) => {
    const user = await createUser()
    const admin = await createUser({ admin: true })
    const asUser = await client.get('/api/users').loginAs(user)
    asUser.assertStatus(403)
    const asAdmin = await client.get('/api/users').loginAs(admin)
    asAdmin.assertStatus(200)
    const asVisitor = await client.get('/api/users')
    asVisitor.assertStatus(401)
  })
})
