/**
 * `oauth.disablePassword`: password sign-in and password reset are refused
 * (403); the TOTP step of a social sign-in still works.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { createUser } from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

test.group('Social login | oauth.disablePassword', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('password sign-in works while off and is refused while on', async ({ client, assert }) => {
    await createUser({ username: 'pwuser', password: 'password123' })
    ;(
      await client.post('/api/auth/signIn').json({ username: 'pwuser', password: 'password123' })
    ).assertStatus(200)
    await configService.update([{ key: 'oauth.disablePassword', value: true }])
    const refused = await client
      .post('/api/auth/signIn')
      .json({ username: 'pwuser', password: 'password123' })
    refused.assertStatus(403)
    assert.equal(refused.body().message, 'Password sign in is disabled')
  })

  test('password reset request and reset are refused while on', async ({ client, assert }) => {
    await configService.update([{ key: 'oauth.disablePassword', value: true }])
    const request = await client.post('/api/auth/resetPassword/someone@example.com')
    request.assertStatus(403)
    assert.equal(request.body().message, 'Password reset is disabled')
    const reset = await client
      .post('/api/auth/resetPassword')
      .json({ token: 'x', password: 'new-password-123' })
    reset.assertStatus(403)
    assert.equal(reset.body().message, 'Password reset is disabled')
  })

  test('the setting is public, so the sign-in page can hide the form', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'oauth.disablePassword', value: true }])
    const configs = (await client.get('/api/configs')).body() as { key: string; value: unknown }[]
    assert.equal(
      configs.find((variable) => variable.key === 'oauth.disablePassword')?.value,
      'true'
    )
  })
})
