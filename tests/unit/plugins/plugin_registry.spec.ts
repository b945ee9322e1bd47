import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { ConfigRegistry } from '#extensions/config/registry'
import type { PluginManifest, PluginProviderClass } from '#extensions/plugins/define_plugin'
import { PluginRegistry } from '#extensions/plugins/plugin_registry'

const calls: string[] = []

/** A provider class recording its calls under `id`, optionally failing in `failIn`. */
function recorder(id: string, failIn?: string): PluginProviderClass {
  const record = (phase: string) => () => {
    calls.push(`${id}:${phase}`)
    if (phase === failIn) throw new Error(`${id} broke`)
  }
  return class {
    register = record('register')
    boot = record('boot')
    start = record('start')
    ready = record('ready')
    shutdown = record('shutdown')
  }
}

const manifest = (id: string, extra: Partial<PluginManifest> = {}): PluginManifest => ({
  id,
  displayName: id,
  version: '1.0.0',
  engine: '^1.0.0',
  ...extra,
})

function registryOf(...plugins: Array<[PluginManifest, PluginProviderClass?]>) {
  const registry = new PluginRegistry().use(
    plugins.map(([m, Provider]) => ({ manifest: m, directory: new URL('file:///tmp/'), Provider }))
  )
  registry.instantiate(app, (m) => ({
    manifest: m,
    env: { get: () => undefined },
    routes: async () => {},
  }))
  return registry
}

test.group('Plugins | registry lifecycle', (group) => {
  group.each.setup(() => {
    calls.length = 0
  })

  test('runs each phase in load order and shutdown in reverse', async ({ assert }) => {
    const registry = registryOf(
      [manifest('a'), recorder('a')],
      [manifest('b'), recorder('b')],
      [manifest('c')]
    )
    for (const phase of ['register', 'boot', 'start', 'ready', 'shutdown'] as const)
      await registry.run(phase)
    assert.deepEqual(calls, [
      'a:register',
      'b:register',
      'a:boot',
      'b:boot',
      'a:start',
      'b:start',
      'a:ready',
      'b:ready',
      'b:shutdown',
      'a:shutdown',
    ])
    assert.deepEqual(registry.ids(), ['a', 'b', 'c'])
    assert.isTrue(registry.has('c'))
    assert.equal(registry.get('b')?.displayName, 'b')
  })

  test('a failing phase stops with E_PLUGIN_LIFECYCLE_FAILED naming the plugin', async ({
    assert,
  }) => {
    const registry = registryOf(
      [manifest('a'), recorder('a', 'boot')],
      [manifest('b'), recorder('b')]
    )
    const error = await registry.run('boot').catch((e) => e)
    assert.equal(error.code, 'E_PLUGIN_LIFECYCLE_FAILED')
    assert.equal(error.message, 'Plugin "a" failed in boot: a broke')
    assert.deepEqual(calls, ['a:boot'])
  })

  test('shutdown still reaches every plugin when one fails', async ({ assert }) => {
    const registry = registryOf(
      [manifest('a'), recorder('a')],
      [manifest('b'), recorder('b', 'shutdown')]
    )
    const error = await registry.run('shutdown').catch((e) => e)
    assert.equal(error.message, 'Plugin "b" failed in shutdown: b broke')
    assert.deepEqual(calls, ['b:shutdown', 'a:shutdown'])
  })
})

test.group('Plugins | registry checks', () => {
  test('registers config categories with the plugin as source', ({ assert }) => {
    const config = new ConfigRegistry()
    const registry = registryOf([
      manifest('demo', {
        config: [
          {
            id: 'demo',
            displayName: 'Demo',
            order: 100,
            variables: [{ key: 'demo.token', type: 'string', defaultValue: '' }],
          },
        ],
      }),
    ])
    registry.defineConfigCategories((definition) => config.defineCategory(definition))
    assert.equal(config.category('demo')?.source, 'demo')
    assert.equal(config.find('demo.token')?.type, 'string')
  })

  test('a refused config category is E_PLUGIN_INVALID_MANIFEST naming the entry', ({ assert }) => {
    const config = new ConfigRegistry()
    const registry = registryOf([
      manifest('demo', {
        config: [
          {
            id: 'demo',
            displayName: 'Demo',
            order: 1,
            variables: [{ key: 'other.x', type: 'string', defaultValue: '' }],
          },
        ],
      }),
    ])
    try {
      registry.defineConfigCategories((definition) => config.defineCategory(definition))
      assert.fail('expected a throw')
    } catch (error) {
      assert.equal((error as { code: string }).code, 'E_PLUGIN_INVALID_MANIFEST')
      assert.match(
        (error as Error).message,
        /^Invalid manifest of plugin "demo": field "config.0" .*other\.x/
      )
    }
  })

  test('declared contributions must be registered', ({ assert }) => {
    const none = { has: () => false }
    const all = { has: () => true }
    const registry = registryOf([
      manifest('demo', { provides: { storage: ['demo-disk'], admin: true } }),
    ])
    assert.throws(
      () => registry.verifyProvides({ storage: none, auth: all, notifications: all, admin: all }),
      'Plugin "demo" declares storage disk "demo-disk" in provides but did not register it'
    )
    assert.throws(
      () => registry.verifyProvides({ storage: all, auth: all, notifications: all, admin: none }),
      'Plugin "demo" declares provides.admin but contributed nothing'
    )
    registry.verifyProvides({ storage: all, auth: none, notifications: none, admin: all })
  })

  test('a required environment variable must be set', ({ assert }) => {
    const registry = registryOf([
      manifest('demo', { env: [{ name: 'DEMO_TOKEN', required: true }] }),
    ])
    assert.throws(
      () => registry.checkEnvironment(() => undefined),
      'Plugin "demo" needs the environment variable DEMO_TOKEN, which is not set'
    )
    registry.checkEnvironment((name) => (name === 'DEMO_TOKEN' ? 'set' : undefined))
  })
})
