import { test } from '@japa/runner'
import { validateManifest } from '#extensions/plugins/manifest_schema'

const valid = {
  id: 'demo-plugin',
  displayName: 'Demo',
  version: '1.2.3',
  engine: '^1.0.0',
  provides: { storage: ['demo'], hooks: ['share:created', 'file:before_store'], admin: false },
  requires: ['local-storage'],
  config: [{ id: 'demo', displayName: 'Demo', order: 100, variables: [] }],
  env: [{ name: 'DEMO_TOKEN', required: false }],
}

/** The message of the error `validateManifest` rejects with (asserting its code). */
async function problem(assert: any, candidate: unknown, folder = 'demo-plugin'): Promise<string> {
  const error = await validateManifest(folder, candidate).then(
    () => assert.fail('expected the manifest to be refused'),
    (e) => e
  )
  assert.equal(error.code, 'E_PLUGIN_INVALID_MANIFEST')
  return error.message
}

test.group('Plugins | manifest validation', () => {
  test('accepts a complete manifest and keeps its config definitions as given', async ({
    assert,
  }) => {
    const manifest = await validateManifest('demo-plugin', valid)
    assert.equal(manifest.id, 'demo-plugin')
    assert.deepEqual(manifest.provides?.storage, ['demo'])
    assert.strictEqual(manifest.config, valid.config)
  })

  test('accepts a minimal manifest', async ({ assert }) => {
    const manifest = await validateManifest('mini', {
      id: 'mini',
      displayName: 'Mini',
      version: '0.1.0',
      engine: '*',
    })
    assert.equal(manifest.version, '0.1.0')
  })

  test('names the plugin and the field for each invalid field', async ({ assert }) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: 'Demo_Plugin' }, 'field "id" must be kebab-case'],
      [{ displayName: undefined }, 'field "displayName" is required'],
      [{ displayName: '  ' }, 'field "displayName" must not be empty'],
      [{ version: '1.0' }, 'field "version" must be a semantic version'],
      [{ engine: 'latest' }, 'field "engine" must be a semver range'],
      [{ provides: { hooks: ['share:exploded'] } }, 'field "provides.hooks.0" must be one of'],
      [{ provides: { admin: 'yes' } }, 'field "provides.admin" must be a boolean'],
      [{ requires: ['Not An Id'] }, 'field "requires.0" must be plugin ids'],
      [{ requires: ['a', 'a'] }, 'field "requires" must not repeat a value'],
      [{ env: [{ name: 'lower', required: true }] }, 'field "env.0.name" must be UPPER_SNAKE_CASE'],
      [{ env: [{ name: 'OK' }] }, 'field "env.0.required" is required'],
      [{ config: [{ displayName: 'no id' }] }, 'field "config.0.id" is required'],
    ]
    for (const [change, expected] of cases) {
      const message = await problem(assert, { ...valid, ...change })
      assert.include(message, 'Invalid manifest of plugin "demo-plugin"')
      assert.include(message, expected)
    }
  })

  test('requires the manifest id to equal the folder name', async ({ assert }) => {
    assert.include(
      await problem(assert, valid, 'other-folder'),
      'field "id" must equal the folder name "other-folder"'
    )
  })

  test('refuses a module without a manifest object', async ({ assert }) => {
    assert.include(await problem(assert, undefined), 'must export `manifest = definePlugin({...})`')
  })
})
