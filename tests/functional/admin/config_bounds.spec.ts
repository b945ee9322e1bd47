/**
 * (ext) `GET /api/configs/admin/:category` states the bounds of number and
 * file size variables that have them, so the admin panel's editors offer
 * only values the server accepts.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authHeaderFor, createUser } from '#tests/helpers/auth'

test.group('Admin | config bounds', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('numbers and file sizes with rules carry min and max; the others none', async ({
    client,
    assert,
  }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const share = (await client.get('/api/configs/admin/share').header(...header)).body() as Record<
      string,
      unknown
    >[]
    const byKey = (key: string) => share.find((item) => item.key === key)!
    assert.containsSubset(byKey('share.zipCompressionLevel'), { min: 0, max: 9 })
    assert.containsSubset(byKey('share.shareIdLength'), { min: 2, max: 50 })
    assert.containsSubset(byKey('share.maxSize'), { min: 1 })
    assert.notProperty(byKey('share.maxSize'), 'max')
    assert.notProperty(byKey('share.allowRegistration'), 'min')
    assert.notProperty(byKey('share.maxExpiration'), 'max')

    const smtp = (await client.get('/api/configs/admin/smtp').header(...header)).body() as Record<
      string,
      unknown
    >[]
    assert.containsSubset(
      smtp.find((item) => item.key === 'smtp.port'),
      { min: 0, max: 65535 }
    )

    const fixture = (
      await client.get('/api/configs/admin/fixture').header(...header)
    ).body() as Record<string, unknown>[]
    assert.containsSubset(
      fixture.find((item) => item.key === 'fixture.maxItems'),
      { min: 1, max: 10 }
    )
  })

  test('the PATCH reply carries them too', async ({ client, assert }) => {
    const header = await authHeaderFor(await createUser({ admin: true }))
    const response = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'share.zipCompressionLevel', value: 4 }])
    response.assertStatus(200)
    assert.containsSubset(response.body(), [
      { key: 'share.zipCompressionLevel', value: '4', min: 0, max: 9 },
    ])
  })
})
