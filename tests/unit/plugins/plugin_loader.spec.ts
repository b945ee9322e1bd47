import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { PluginManifest } from '#extensions/plugins/define_plugin'
import {
  DEFAULT_PLUGINS,
  loadPlugins,
  orderByDependencies,
  parseEnabledPlugins,
  pluginSearchPaths,
} from '#extensions/plugins/plugin_loader'

const FIXTURES = 'tests/fixtures/plugins'
const searchPaths = (extra = FIXTURES) => pluginSearchPaths(app.appRoot, extra)

/** The error `action` rejects with. */
async function failure(assert: any, action: () => Promise<unknown>) {
  return action().then(
    () => assert.fail('expected a rejection'),
    (error) => error
  )
}

const manifest = (id: string, requires: string[] = []): { manifest: PluginManifest } => ({
  manifest: { id, displayName: id, version: '1.0.0', engine: '^1.0.0', requires },
})

test.group('Plugins | enabled list and search paths', () => {
  test('TERN_PLUGINS unset means the default set', ({ assert }) => {
    assert.deepEqual(parseEnabledPlugins(undefined), [...DEFAULT_PLUGINS])
    assert.deepEqual(DEFAULT_PLUGINS, [
      'local-storage',
      'email',
      'oidc',
      'github',
      'google',
      'discord',
      'microsoft',
      'ldap',
    ])
  })

  test('TERN_PLUGINS is a comma separated list; blanks are ignored', ({ assert }) => {
    assert.deepEqual(parseEnabledPlugins(' local-storage , fixture ,'), [
      'local-storage',
      'fixture',
    ])
    assert.deepEqual(parseEnabledPlugins(''), [])
  })

  test('an id listed twice is E_PLUGIN_DUPLICATE_ID', ({ assert }) => {
    assert.throws(
      () => parseEnabledPlugins('a,b,a'),
      'Duplicate plugin id "a": it is listed twice in TERN_PLUGINS'
    )
  })

  test('plugins/ comes first, then TERN_PLUGIN_PATHS relative to the app root or absolute', ({
    assert,
  }) => {
    const root = fileURLToPath(app.appRoot)
    const paths = pluginSearchPaths(
      app.appRoot,
      ' tests/fixtures/plugins , /opt/tern-plugins '
    ).map((url) => fileURLToPath(url))
    assert.deepEqual(paths, [
      `${root}plugins/`,
      `${root}tests/fixtures/plugins/`,
      '/opt/tern-plugins/',
    ])
  })
})

test.group('Plugins | loading', () => {
  test('loads enabled plugins in dependency order with their providers', async ({ assert }) => {
    const plugins = await loadPlugins({
      enabled: ['fixture', 'local-storage'],
      searchPaths: searchPaths(),
    })
    assert.deepEqual(
      plugins.map((plugin) => plugin.manifest.id),
      ['local-storage', 'fixture']
    )
    assert.isFunction(plugins[0].Provider)
    assert.equal(plugins[1].manifest.config?.[0].id, 'fixture')
  })

  test('an unknown id is E_PLUGIN_UNKNOWN naming the plugin', async ({ assert }) => {
    const error = await failure(assert, () =>
      loadPlugins({ enabled: ['no-such-plugin'], searchPaths: searchPaths() })
    )
    assert.equal(error.code, 'E_PLUGIN_UNKNOWN')
    assert.match(error.message, /^Unknown plugin "no-such-plugin" in TERN_PLUGINS/)
  })

  test('two folders for one id is E_PLUGIN_DUPLICATE_ID', async ({ assert }) => {
    const error = await failure(assert, () =>
      loadPlugins({
        enabled: ['local-storage'],
        searchPaths: searchPaths(`${FIXTURES}/duplicates`),
      })
    )
    assert.equal(error.code, 'E_PLUGIN_DUPLICATE_ID')
    assert.include(
      error.message,
      'Duplicate plugin id "local-storage": two plugin folders provide it'
    )
  })

  test('an invalid manifest is E_PLUGIN_INVALID_MANIFEST naming plugin and field', async ({
    assert,
  }) => {
    const error = await failure(assert, () =>
      loadPlugins({ enabled: ['broken-manifest'], searchPaths: searchPaths() })
    )
    assert.equal(error.code, 'E_PLUGIN_INVALID_MANIFEST')
    assert.equal(
      error.message,
      'Invalid manifest of plugin "broken-manifest": field "version" must be a semantic version such as 1.0.0'
    )
  })

  test('an engine range the host does not satisfy is E_PLUGIN_ENGINE_MISMATCH', async ({
    assert,
  }) => {
    const error = await failure(assert, () =>
      loadPlugins({ enabled: ['future-engine'], searchPaths: searchPaths() })
    )
    assert.equal(error.code, 'E_PLUGIN_ENGINE_MISMATCH')
    assert.equal(
      error.message,
      'Plugin "future-engine" needs plugin API "^99.0.0" but this Tern provides 1.0.0'
    )

    const newer = await failure(assert, () =>
      loadPlugins({ enabled: ['local-storage'], searchPaths: searchPaths(), hostVersion: '2.0.0' })
    )
    assert.equal(newer.code, 'E_PLUGIN_ENGINE_MISMATCH')
  })

  test('a requirement that is not enabled is E_PLUGIN_DEPENDENCY_MISSING', async ({ assert }) => {
    const error = await failure(assert, () =>
      loadPlugins({ enabled: ['local-storage', 'needs-fixture'], searchPaths: searchPaths() })
    )
    assert.equal(error.code, 'E_PLUGIN_DEPENDENCY_MISSING')
    assert.equal(
      error.message,
      'Plugin "needs-fixture" requires plugin "fixture", which is not enabled (add it to TERN_PLUGINS)'
    )
  })

  test('dependency order keeps the listed order otherwise and refuses cycles', ({ assert }) => {
    const ordered = orderByDependencies([manifest('c', ['b']), manifest('a'), manifest('b', ['a'])])
    assert.deepEqual(
      ordered.map((p) => p.manifest.id),
      ['a', 'b', 'c']
    )
    assert.throws(
      () => orderByDependencies([manifest('x', ['y']), manifest('y', ['x'])]),
      'Plugins require each other in a cycle: x -> y -> x'
    )
  })
})
