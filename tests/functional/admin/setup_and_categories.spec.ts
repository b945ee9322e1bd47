import { test } from '@japa/runner'
import { existsSync, readFileSync } from 'node:fs'
import testUtils from '@adonisjs/core/services/test_utils'
import ConfigVariable from '#models/config_variable'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { configRegistry } from '#extensions/config/registry'
import { pluginRegistry } from '#extensions/plugins/main'
import { accessCookieFor, authHeaderFor, createUser } from '#tests/helpers/auth'

const configService = await app.container.make(ConfigService)

async function adminHeader() {
  return authHeaderFor(await createUser({ admin: true }))
}

/** The value of `key` in the public `GET /api/configs?ext=1` list (Tern's view: the flag is Tern's own). */
async function publicValue(client: any, key: string) {
  const response = await client.get('/api/configs?ext=1')
  return (response.body() as { key: string; value: string }[]).find((item) => item.key === key)
    ?.value
}

test.group('Admin | finish setup', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('POST /api/configs/admin/finishSetup answers 201 and GET /api/configs then says so', async ({
    client,
    assert,
  }) => {
    assert.equal(await publicValue(client, 'internal.setupFinished'), 'false')
    const response = await client
      .post('/api/configs/admin/finishSetup')
      .header(...(await adminHeader()))
    response.assertStatus(201)
    assert.equal(await publicValue(client, 'internal.setupFinished'), 'true')
    assert.strictEqual(await configService.get('internal.setupFinished'), true)
    assert.equal((await ConfigVariable.findOrFail('internal.setupFinished')).value, 'true')
  })

  test('finishing again is harmless (201)', async ({ client, assert }) => {
    const header = await adminHeader()
    ;(await client.post('/api/configs/admin/finishSetup').header(...header)).assertStatus(201)
    ;(await client.post('/api/configs/admin/finishSetup').header(...header)).assertStatus(201)
    assert.equal(await publicValue(client, 'internal.setupFinished'), 'true')
  })

  test('the flag cannot be changed through PATCH /api/configs/admin', async ({
    client,
    assert,
  }) => {
    const response = await client
      .patch('/api/configs/admin')
      .header(...(await adminHeader()))
      .json([{ key: 'internal.setupFinished', value: true }])
    response.assertStatus(400)
    assert.equal(response.body().message, 'Config variable internal.setupFinished cannot be edited')
    assert.equal(await publicValue(client, 'internal.setupFinished'), 'false')
  })

  test('visitors get 401 and non-admins 403, and setup stays unfinished', async ({
    client,
    assert,
  }) => {
    ;(await client.post('/api/configs/admin/finishSetup')).assertStatus(401)
    const user = await createUser()
    const forbidden = await client
      .post('/api/configs/admin/finishSetup')
      .header('Cookie', await accessCookieFor(user))
    forbidden.assertStatus(403)
    assert.equal(await publicValue(client, 'internal.setupFinished'), 'false')
  })
})

test.group('Admin | configuration categories', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('GET /api/configs/admin lists the menu: core categories in order, then plugin categories', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/configs/admin').header(...(await adminHeader()))
    response.assertStatus(200)
    const body = response.body() as {
      category: string
      name: string
      order: number
      source: string
    }[]
    for (const item of body)
      assert.sameMembers(Object.keys(item), ['category', 'name', 'order', 'source'])
    // The ldap plugin (enabled in this run, bin/test.ts) sits between Social Login and Legal, as in Pingvin Share.
    assert.deepEqual(body.slice(0, 7), [
      { category: 'general', name: 'General', order: 10, source: 'core' },
      { category: 'share', name: 'Share', order: 20, source: 'core' },
      { category: 'email', name: 'Email', order: 30, source: 'core' },
      { category: 'smtp', name: 'SMTP', order: 40, source: 'core' },
      { category: 'oauth', name: 'Social Login', order: 50, source: 'core' },
      { category: 'ldap', name: 'LDAP', order: 55, source: 'ldap' },
      { category: 'legal', name: 'Legal', order: 60, source: 'core' },
    ])
    // This run enables s3-storage, gcs-storage, webhook, ntfy, the fixture and forty-two plugins (bin/test.ts).
    assert.deepEqual(body.slice(7), [
      { category: 's3', name: 'S3', order: 100, source: 's3-storage' },
      { category: 'gcs', name: 'Google Cloud Storage', order: 105, source: 'gcs-storage' },
      { category: 'emailNotifications', name: 'E-mail notifications', order: 108, source: 'email' },
      { category: 'webhook', name: 'Webhooks', order: 110, source: 'webhook' },
      { category: 'ntfy', name: 'ntfy', order: 115, source: 'ntfy' },
      { category: 'fixture', name: 'Fixture', order: 900, source: 'fixture' },
      { category: 'fortyTwo', name: '42', order: 960, source: 'forty-two' },
    ])
    assert.notInclude(
      body.map((item) => item.category),
      'internal'
    )
  })

  test("the panel names every category of the core and of Tern's own plugins in the catalogue, product names aside", async ({
    client,
    assert,
  }) => {
    // Shown as the server names them in every language: names of products and protocols.
    const productNames = ['ldap', 's3', 'gcs', 'ntfy']
    const named = JSON.parse(readFileSync(app.makePath('resources/lang/en-US/admin.json'), 'utf8'))
      .config.categories
    const response = await client.get('/api/configs/admin').header(...(await adminHeader()))
    const categories = response.body() as { category: string; name: string; source: string }[]
    // Tern's own: the core's and those of the plugins shipped in plugins/ (not the test fixtures' plugins).
    const own = categories.filter(
      ({ source }) => source === 'core' || existsSync(app.makePath('plugins', source))
    )
    assert.includeMembers(
      own.map(({ category }) => category),
      ['general', 'emailNotifications', 'webhook', 'ldap']
    )
    // The panel (inertia/admin/components/config/variable_text.ts) shows the catalogue's name, else the server's
    // English one; every language translates the catalogue (tests/functional/pages/catalogues.spec.ts).
    const unnamed = own.filter(
      ({ category }) => !productNames.includes(category) && !(category in named)
    )
    assert.deepEqual(
      unnamed.map(({ category, name }) => `${category} "${name}"`),
      []
    )
  })

  test("every listed category can be read with Tern's extensions, plugin categories included", async ({
    client,
    assert,
  }) => {
    const header = await adminHeader()
    const categories = (await client.get('/api/configs/admin').header(...header)).body() as {
      category: string
    }[]
    for (const { category } of categories) {
      const response = await client.get(`/api/configs/admin/${category}?ext=1`).header(...header)
      response.assertStatus(200)
      assert.deepEqual(
        response.body().map((item: { key: string }) => item.key),
        configRegistry.category(category)!.variables.map((variable) => variable.key),
        category
      )
    }
  })

  test('a plugin category is edited like a core one', async ({ client, assert }) => {
    const header = await adminHeader()
    const response = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([
        { key: 'fixture.maxItems', value: 7 },
        { key: 'fixture.secret', value: 'top-secret' },
      ])
    response.assertStatus(200)
    assert.containsSubset(response.body(), [
      { key: 'fixture.maxItems', value: '7' },
      { key: 'fixture.secret', value: '********' },
    ])
    const outOfRange = await client
      .patch('/api/configs/admin')
      .header(...header)
      .json([{ key: 'fixture.maxItems', value: 11 }])
    outOfRange.assertStatus(400)
    assert.strictEqual(await configService.get('fixture.maxItems'), 7)
  })

  test('the hidden internal category is 404 for admins too', async ({ client, assert }) => {
    const response = await client
      .get('/api/configs/admin/internal')
      .header(...(await adminHeader()))
    response.assertStatus(404)
    assert.equal(response.body().message, 'Config category internal not found')
  })

  test('GET /api/admin/plugins: enabled plugins and their admin contributions', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/admin/plugins').header(...(await adminHeader()))
    response.assertStatus(200)
    assert.deepEqual(response.body().enabledPlugins, pluginRegistry.ids())
    assert.includeMembers(response.body().enabledPlugins, [
      'local-storage',
      'email',
      's3-storage',
      'fixture',
      'webhook',
    ])
    assert.deepInclude(response.body().contributions, {
      pluginId: 'fixture',
      resources: [{ name: 'fixture-items', label: 'Fixture items' }],
      menu: [
        { key: 'fixture', label: 'Fixture', path: '/plugins/fixture', icon: 'ExperimentOutlined' },
      ],
      configCategories: ['fixture'],
    })
  })

  test('visitors get 401 and non-admins 403 on the category list, plugin categories and the manifest', async ({
    client,
  }) => {
    const cookie = await accessCookieFor(await createUser())
    for (const path of [
      '/api/configs/admin',
      '/api/configs/admin/fixture',
      '/api/configs/admin/s3',
      '/api/admin/plugins',
    ]) {
      ;(await client.get(path)).assertStatus(401)
      ;(await client.get(path).header('Cookie', cookie)).assertStatus(403)
    }
  })
})
