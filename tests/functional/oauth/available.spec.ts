import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'

const configService = await app.container.make(ConfigService)

test.group('Social login | available providers', (group) => {
  group.each.teardown(async () => {
    await configService.update([{ key: 'fixture.enabled', value: '' }])
  })

  test('lists no provider while every registered one is switched off', async ({ client }) => {
    const response = await client.get('/api/oauth/available')
    response.assertStatus(200)
    response.assertBody([])
  })

  test('lists a registered provider once its enabled setting is on', async ({ client }) => {
    await configService.update([{ key: 'fixture.enabled', value: true }])
    const response = await client.get('/api/oauth/available')
    response.assertStatus(200)
    response.assertBody(['fixture-oauth'])
  })
})
