/**
 * The gcs-storage plugin as the app boots it (bin/test.ts enables it): its
 * config category, the `gcs` disk, the default-disk resolver, the settings'
 * validation, and settings changes applied at the next operation.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { Storage } from '@google-cloud/storage'
import { configRegistry } from '#extensions/config/registry'
import { configValues } from '#extensions/config/config_values'
import { pluginRegistry } from '#extensions/plugins/main'
import { storage } from '#extensions/storage/main'
import { assertRejectsWithCode } from '#tests/contracts/storage_driver_contract'
import { assertConfigRefused } from '#tests/helpers/config_values'
import { GCS_CONFIG_KEYS } from '#plugins/gcs-storage/index'
import { startGcsEmulator, type GcsEmulator } from '../emulator/gcs_emulator.js'

test.group('GCS storage | plugin', (group) => {
  let emulator: GcsEmulator

  /** Every object name of `bucket`, sorted. */
  async function names(bucket: string): Promise<string[]> {
    const client = new Storage({
      projectId: emulator.projectId,
      credentials: JSON.parse(emulator.credentials),
    })
    const [files] = await client.bucket(bucket).getFiles()
    return files.map((file) => file.name).sort()
  }

  group.setup(async () => {
    if (!pluginRegistry.has('gcs-storage')) {
      throw new Error(
        'Enable the plugin for these tests: TERN_PLUGINS=...,gcs-storage (bin/test.ts does)'
      )
    }
    emulator = await startGcsEmulator()
    return () => emulator.close()
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('declares the "Google Cloud Storage" category, the credentials obscured', ({ assert }) => {
    const category = configRegistry.category('gcs')!
    assert.equal(category.displayName, 'Google Cloud Storage')
    assert.equal(category.source, 'gcs-storage')
    assert.deepEqual(
      category.variables.map((variable) => [variable.key, variable.type, variable.defaultValue]),
      [
        ['gcs.enabled', 'boolean', 'false'],
        ['gcs.bucketName', 'string', ''],
        ['gcs.bucketPath', 'string', ''],
        ['gcs.projectId', 'string', ''],
        ['gcs.credentials', 'text', ''],
        ['gcs.endpoint', 'string', ''],
      ]
    )
    assert.deepEqual(
      category.variables.map((variable) => variable.key),
      [...GCS_CONFIG_KEYS]
    )
    assert.deepEqual(
      category.variables.filter((variable) => variable.obscured).map((variable) => variable.key),
      ['gcs.credentials']
    )
    assert.isTrue(category.variables.every((variable) => !variable.public))
  })

  test('registers the "gcs" disk without becoming the static default; new files go there while enabled', async ({
    assert,
  }) => {
    assert.isTrue(storage.has('gcs'))
    assert.equal(storage.defaultName, 'local')
    assert.deepEqual(storage.use('gcs').capabilities(), [
      'multipartUpload',
      'rangeRead',
      'multipartListing',
    ])
    assert.equal(await storage.resolveDefault(), 'local')
    await configValues.update([{ key: 'gcs.enabled', value: true }])
    assert.equal(await storage.resolveDefault(), 'gcs')
    await configValues.update([{ key: 'gcs.enabled', value: false }])
    assert.equal(await storage.resolveDefault(), 'local')
  })

  test('the next operation uses the bucket and prefix changed in the settings', async ({
    assert,
  }) => {
    const disk = storage.use('gcs')
    await configValues.update([
      { key: 'gcs.bucketName', value: 'plugin-first' },
      { key: 'gcs.projectId', value: emulator.projectId },
      { key: 'gcs.credentials', value: emulator.credentials },
      { key: 'gcs.endpoint', value: emulator.endpoint },
    ])
    await disk.put('share-a/file.txt', 'in the first bucket')
    await configValues.update([
      { key: 'gcs.bucketName', value: 'plugin-second' },
      { key: 'gcs.bucketPath', value: 'tern/uploads' },
    ])
    assert.strictEqual(storage.use('gcs'), disk)
    await disk.put('share-b/file.txt', 'in the second bucket')
    assert.deepEqual(await names('plugin-first'), ['share-a/file.txt'])
    assert.deepEqual(await names('plugin-second'), ['tern/uploads/share-b/file.txt'])
    assert.isFalse(await disk.exists('share-a/file.txt'))
    await disk.deleteAll('/')
    await configValues.update([
      { key: 'gcs.bucketName', value: 'plugin-first' },
      { key: 'gcs.bucketPath', value: '' },
    ])
    assert.equal(await disk.get('share-a/file.txt'), 'in the first bucket')
    await disk.deleteAll('/')
    assert.deepEqual(await names('plugin-first'), [])
  })

  test('fails with a storage error while no bucket is set', async ({ assert }) => {
    await assertRejectsWithCode(
      assert,
      () => storage.use('gcs').put('x.txt', 'x'),
      'E_STORAGE_WRITE_FAILED'
    )
  })

  test('refuses bad endpoints, bucket names, prefixes and credentials', async ({ assert }) => {
    await assertConfigRefused(assert, [
      ['gcs.endpoint', 'ftp://storage.example.com'],
      ['gcs.endpoint', 'localhost:9199'],
      ['gcs.bucketPath', '../other-tenant'],
      ['gcs.bucketName', 'Bad/Bucket'],
      ['gcs.projectId', 'Not A Project'],
      ['gcs.credentials', 'not json'],
      ['gcs.credentials', '["a list"]'],
      ['gcs.credentials', '{"client_email":"no type"}'],
    ])
    await configValues.update([
      { key: 'gcs.endpoint', value: 'https://storage.googleapis.com' },
      { key: 'gcs.bucketName', value: 'tern-files.example.com' },
      { key: 'gcs.projectId', value: 'example.com:tern-prod' },
      { key: 'gcs.credentials', value: emulator.credentials },
    ])
    assert.deepEqual(
      await configValues.getMany(['gcs.endpoint', 'gcs.bucketName', 'gcs.enabled']),
      {
        'gcs.endpoint': 'https://storage.googleapis.com',
        'gcs.bucketName': 'tern-files.example.com',
        'gcs.enabled': false,
      }
    )
  })
})
