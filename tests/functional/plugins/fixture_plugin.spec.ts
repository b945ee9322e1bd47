/**
 * The fixture plugin (tests/fixtures/plugins/fixture) contributes to every
 * extension point; the test runner enables it
 * (TERN_PLUGINS=local-storage,fixture, TERN_PLUGIN_PATHS=tests/fixtures/plugins).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import router from '@adonisjs/core/services/router'
import { adminPluginsManifest } from '#extensions/admin/main'
import { authProviders } from '#extensions/auth/main'
import { configRegistry } from '#extensions/config/registry'
import { ACTION_EVENTS, HookRefusedException, hooks } from '#extensions/hooks/main'
import { notifications } from '#extensions/notifications/main'
import { pluginRegistry } from '#extensions/plugins/main'
import { storage } from '#extensions/storage/main'
import { assertRejectsWithCode } from '#tests/contracts/storage_driver_contract'
import { outbox, phases, receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'

/** The plugins the test runner enables, in the order they load (a plugin after those it requires). */
const PLUGINS_IN_LOAD_ORDER = [
  'local-storage',
  'email',
  's3-storage',
  'fixture',
  'webhook',
  'ntfy',
  'oidc',
  'github',
  'google',
  'discord',
  'microsoft',
  'gcs-storage',
  'recording-channel',
  'forty-two',
  'ldap',
]

test.group('Plugins | fixture plugin after boot', () => {
  test('is loaded after the plugin it requires and went through register, boot, start and ready', async ({
    assert,
  }) => {
    assert.deepEqual(pluginRegistry.ids(), PLUGINS_IN_LOAD_ORDER)
    assert.deepEqual(phases, ['register', 'boot', 'start', 'ready'])
    assert.strictEqual(await app.container.make('tern.plugins'), pluginRegistry)
    assert.strictEqual(await app.container.make('tern.storage'), storage)
    assert.strictEqual(await app.container.make('tern.hooks'), hooks)
    assert.strictEqual(await app.container.make('notifications.manager'), notifications)
  })

  test('its storage disk stores files under its own root, without optional capabilities', async ({
    assert,
  }) => {
    const disk = storage.use('fixture')
    await disk.put('checks/a.txt', 'fixture bytes')
    assert.equal(await disk.get('checks/a.txt'), 'fixture bytes')
    const onDisk = await readFile(
      join(process.env.DATA_DIR!, 'fixture-storage', 'checks/a.txt'),
      'utf8'
    )
    assert.equal(onDisk, 'fixture bytes')
    assert.deepEqual(disk.capabilities(), [])
    await assertRejectsWithCode(
      assert,
      () => disk.writeAt('checks/a.txt', 0, Buffer.from('x')),
      'E_STORAGE_UNSUPPORTED'
    )
    await disk.delete('checks/a.txt')
    assert.equal(storage.defaultName, 'local')
  })

  test('its share:before_create filter transforms the payloads meant for it', async ({
    assert,
  }) => {
    const base = { share: { id: 'abc', recipients: [] }, creatorId: null }
    const changed = await hooks.filter('share:before_create', {
      ...base,
      share: { ...base.share, name: 'fixture:hello' },
    })
    assert.equal(changed.share.name, 'HELLO')
    assert.equal(changed.share.description, 'tagged by fixture')
    const untouched = await hooks.filter('share:before_create', {
      ...base,
      share: { ...base.share, name: 'holiday' },
    })
    assert.equal(untouched.share.name, 'holiday')
  })

  test('its file:before_store filter refuses a file', async ({ assert }) => {
    const payload = { shareId: 's', disk: 'local', file: { name: 'fixture-refused.txt', size: 3 } }
    const error = await hooks.filter('file:before_store', payload).catch((e) => e)
    assert.instanceOf(error, HookRefusedException)
    assert.equal(error.status, 400)
    assert.equal(error.errorKey, 'fixture_refused')
    const accepted = await hooks.filter('file:before_store', {
      ...payload,
      file: { name: 'ok.txt', size: 3 },
    })
    assert.equal(accepted.file.name, 'ok.txt')
  })

  test('its download:before_serve filter adds a header', async ({ assert }) => {
    const served = await hooks.filter('download:before_serve', {
      shareId: 's',
      fileId: 'f',
      fileName: 'fixture-photo.png',
      headers: {},
    })
    assert.deepEqual(served.headers, { 'x-fixture': 'served' })
  })

  test('its listeners receive every action event; a failing listener does not reach the emitter', async ({
    assert,
  }) => {
    receivedEvents.length = 0
    await hooks.emit('share:created', { shareId: 'fixture-explode', creatorId: null })
    await hooks.emit('share:created', { shareId: 's1', creatorId: 'u1' })
    await hooks.emit('share:completed', { shareId: 's1', creatorId: 'u1', fileCount: 2, size: 10 })
    await hooks.emit('share:downloaded', { shareId: 's1', fileId: null })
    await hooks.emit('share:expired', { shareId: 's1' })
    await hooks.emit('share:deleted', { shareId: 's1', reason: 'test' })
    await hooks.emit('reverse_share:used', { reverseShareId: 'r1', shareId: 's1' })
    assert.deepEqual(
      receivedEvents.map((event) => event.name),
      [...ACTION_EVENTS]
    )
    assert.deepEqual(receivedEvents[0].payload, { shareId: 's1', creatorId: 'u1' })
  })

  test('its config category is registered with its variables', ({ assert }) => {
    const category = configRegistry.category('fixture')
    assert.equal(category?.source, 'fixture')
    assert.deepEqual(
      category?.variables.map((variable) => variable.key),
      ['fixture.greeting', 'fixture.maxItems', 'fixture.enabled', 'fixture.secret']
    )
    assert.isTrue(configRegistry.find('fixture.secret')?.obscured)
  })

  test('its admin contribution is listed for the admin panel', ({ assert }) => {
    const manifest = adminPluginsManifest()
    assert.deepEqual(manifest.enabledPlugins, PLUGINS_IN_LOAD_ORDER)
    assert.deepEqual(manifest.contributions, [
      {
        pluginId: 'fixture',
        resources: [{ name: 'fixture-items', label: 'Fixture items' }],
        menu: [
          {
            key: 'fixture',
            label: 'Fixture',
            path: '/plugins/fixture',
            icon: 'ExperimentOutlined',
          },
        ],
        configCategories: ['fixture'],
      },
      {
        pluginId: 'webhook',
        resources: [],
        menu: [
          { key: 'deliveries', label: 'Webhook deliveries', path: '/plugins/webhook/deliveries' },
        ],
        configCategories: ['webhook'],
      },
    ])
  })

  test('its auth provider is registered', async ({ assert }) => {
    const provider = authProviders.get('fixture-oauth')
    assert.equal(provider.displayName, 'Fixture OAuth')
    assert.equal(provider.enabledKey, 'fixture.enabled')
    const ctx = await testUtils.createHttpContext()
    const driver = await provider.driver(ctx, {
      config: {},
      callbackUrl: 'http://localhost/cb',
      nonce: '',
    })
    const url = new URL(await driver.redirectUrl())
    assert.equal(`${url.origin}${url.pathname}`, 'http://127.0.0.1:9/fixture/authorize')
    assert.equal(url.searchParams.get('redirect_uri'), 'http://localhost/cb')
    assert.equal(url.searchParams.get('client_id'), 'fixture-client')
  })

  test('its notification channel delivers, and its failures are coded', async ({ assert }) => {
    outbox.length = 0
    const notification = {
      type: 'share:created',
      to: ['a@example.com'],
      subject: 'New share',
      text: 'Hi',
    }
    await notifications.send('fixture', notification)
    assert.deepEqual(outbox, [notification])
    await assertRejectsWithCode(
      assert,
      () => notifications.send('fixture', { ...notification, type: 'fixture:fail' }),
      'E_NOTIFICATION_SEND_FAILED'
    )
  })

  test('its route answers under /plugins/fixture with the name plugins.fixture.ping', async ({
    client,
    assert,
  }) => {
    assert.equal(router.findOrFail('plugins.fixture.ping').pattern, '/plugins/fixture/ping')
    const response = await client.get('/plugins/fixture/ping')
    response.assertStatus(200)
    response.assertBody({ plugin: 'fixture', version: '0.1.0' })
  })
})
