import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { configRegistry } from '#extensions/config/registry'
import { ConfigValues, configValues } from '#extensions/config/config_values'
import { pluginRegistry } from '#extensions/plugins/main'
import { storage, StorageManager } from '#extensions/storage/main'
import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'
import { assertRejectsWithCode } from '#tests/contracts/storage_driver_contract'
import { assertConfigRefused } from '#tests/helpers/config_values'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'
import { S3_CONFIG_KEYS } from '#plugins/s3-storage/index'

/** Every key of `bucket` on `server`, sorted. */
async function bucketKeys(server: S3Server, bucket = server.bucket): Promise<string[]> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  })
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
    return (page.Contents ?? []).map((object) => object.Key!).sort()
  } finally {
    client.destroy()
  }
}

/** Points the `s3.*` settings at `server`. */
function useServer(server: S3Server, more: Array<{ key: string; value: unknown }> = []) {
  return configValues.update([
    { key: 's3.endpoint', value: server.endpoint },
    { key: 's3.bucketName', value: server.bucket },
    { key: 's3.key', value: server.accessKeyId },
    { key: 's3.secret', value: server.secretAccessKey },
    { key: 's3.forcePathStyle', value: true },
    ...more,
  ])
}

test.group('S3 storage | plugin', (group) => {
  let first: S3Server
  let second: S3Server

  group.setup(async () => {
    if (!pluginRegistry.has('s3-storage')) {
      throw new Error(
        'Enable the plugin for these tests: TERN_PLUGINS=local-storage,email,s3-storage,fixture'
      )
    }
    first = await startS3Server({ bucket: 'first' })
    second = await startS3Server({ bucket: 'second' })
    return async () => {
      await first.close()
      await second.close()
    }
  })
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('declares the "S3" config category with Pingvin\'s names, the secret obscured', ({
    assert,
  }) => {
    const category = configRegistry.category('s3')!
    assert.equal(category.displayName, 'S3')
    assert.equal(category.source, 's3-storage')
    assert.deepEqual(
      category.variables.map((variable) => [variable.key, variable.type, variable.defaultValue]),
      [
        ['s3.enabled', 'boolean', 'false'],
        ['s3.endpoint', 'string', ''],
        ['s3.region', 'string', ''],
        ['s3.bucketName', 'string', ''],
        ['s3.bucketPath', 'string', ''],
        ['s3.key', 'string', ''],
        ['s3.secret', 'string', ''],
        ['s3.forcePathStyle', 'boolean', 'false'],
      ]
    )
    assert.deepEqual(
      category.variables.map((variable) => variable.key),
      [...S3_CONFIG_KEYS]
    )
    assert.deepEqual(
      category.variables.filter((variable) => variable.obscured).map((variable) => variable.key),
      ['s3.secret']
    )
    assert.isTrue(category.variables.every((variable) => !variable.public))
  })

  test('registers the "s3" disk next to "local" without becoming the static default', ({
    assert,
  }) => {
    assert.isTrue(storage.has('s3'))
    assert.equal(storage.defaultName, 'local')
    assert.deepEqual(storage.use('s3').capabilities(), [
      'multipartUpload',
      'rangeRead',
      'multipartListing',
    ])
  })

  test('new files go to "s3" only while s3.enabled is on', async ({ assert }) => {
    assert.equal(await storage.resolveDefault(), 'local')
    await configValues.update([{ key: 's3.enabled', value: true }])
    assert.equal(await storage.resolveDefault(), 's3')
    await configValues.update([{ key: 's3.enabled', value: false }])
    assert.equal(await storage.resolveDefault(), 'local')
  })

  test('the next operation uses the endpoint, bucket and prefix changed in the settings', async ({
    assert,
  }) => {
    const disk = storage.use('s3')
    await useServer(first)
    await disk.put('share-a/file.txt', 'on the first server')
    assert.deepEqual(await bucketKeys(first), ['share-a/file.txt'])

    await useServer(second, [{ key: 's3.bucketPath', value: 'tern/uploads' }])
    assert.strictEqual(storage.use('s3'), disk)
    await disk.put('share-b/file.txt', 'on the second server')
    assert.deepEqual(await bucketKeys(second), ['tern/uploads/share-b/file.txt'])
    assert.deepEqual(await bucketKeys(first), ['share-a/file.txt'])
    assert.equal(await disk.get('share-b/file.txt'), 'on the second server')
    assert.isFalse(await disk.exists('share-a/file.txt'))

    await useServer(first, [{ key: 's3.bucketPath', value: '' }])
    assert.equal(await disk.get('share-a/file.txt'), 'on the first server')
    await disk.deleteAll('/')
    assert.deepEqual(await bucketKeys(first), [])
  })

  test('fails with a storage error while no bucket is set', async ({ assert }) => {
    await configValues.update([{ key: 's3.bucketName', value: '' }])
    await assertRejectsWithCode(
      assert,
      () => storage.use('s3').put('x.txt', 'x'),
      'E_STORAGE_WRITE_FAILED'
    )
  })

  test('refuses an endpoint that is not an http(s) URL and a bucket path leaving the bucket', async ({
    assert,
  }) => {
    await assertConfigRefused(assert, [
      ['s3.endpoint', 'ftp://files.example.com'],
      ['s3.endpoint', 'minio:9000'],
      ['s3.bucketPath', '../other-tenant'],
      ['s3.bucketPath', 'a/../../b'],
      ['s3.bucketName', 'bad/bucket'],
      ['s3.region', 'eu west'],
    ])
    await configValues.update([
      { key: 's3.endpoint', value: 'https://s3.eu-central-1.amazonaws.com' },
      { key: 's3.bucketPath', value: 'tern/files' },
      { key: 's3.region', value: 'eu-central-1' },
    ])
    assert.deepEqual(await configValues.getMany(['s3.endpoint', 's3.bucketPath', 's3.enabled']), {
      's3.endpoint': 'https://s3.eu-central-1.amazonaws.com',
      's3.bucketPath': 'tern/files',
      's3.enabled': false,
    })
  })

  test('refuses path traversal on the "s3" disk', async ({ assert }) => {
    await useServer(first)
    for (const key of ['../escape.txt', 'a/../../escape.txt', '..\\escape.txt']) {
      await assertRejectsWithCode(
        assert,
        () => storage.use('s3').put(key, 'x'),
        'E_STORAGE_INVALID_KEY'
      )
      await assertRejectsWithCode(
        assert,
        () => storage.use('s3').createMultipartUpload(key),
        'E_STORAGE_INVALID_KEY'
      )
    }
    assert.deepEqual(await bucketKeys(first), [])
  })
})

test.group('Storage manager | default disk resolvers', () => {
  test('the first resolver naming a disk wins, else the static default', async ({ assert }) => {
    const manager = new StorageManager()
    manager.registerDriver('local', () => new MemoryStorageDriver())
    manager.registerDriver('s3', () => new MemoryStorageDriver())
    manager.registerDriver('gcs', () => new MemoryStorageDriver())
    assert.equal(await manager.resolveDefault(), 'local')

    let s3 = false
    const calls: string[] = []
    manager.addDefaultResolver(() => {
      calls.push('first')
      return undefined
    })
    const removeS3 = manager.addDefaultResolver(async () => {
      calls.push('s3')
      return s3 ? 's3' : undefined
    })
    manager.addDefaultResolver(() => 'gcs')
    assert.equal(await manager.resolveDefault(), 'gcs')
    assert.deepEqual(calls, ['first', 's3'])

    s3 = true
    assert.equal(await manager.resolveDefault(), 's3')
    removeS3()
    assert.equal(await manager.resolveDefault(), 'gcs')
  })

  test('an unknown answer or no disk at all is E_STORAGE_DISK_UNKNOWN', async ({ assert }) => {
    const empty = new StorageManager()
    await assertRejectsWithCode(assert, () => empty.resolveDefault(), 'E_STORAGE_DISK_UNKNOWN')
    const manager = new StorageManager()
    manager.registerDriver('local', () => new MemoryStorageDriver())
    manager.addDefaultResolver(() => 'nowhere')
    await assertRejectsWithCode(assert, () => manager.resolveDefault(), 'E_STORAGE_DISK_UNKNOWN')
  })
})

test.group('Config values | accessor for plugins', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('reads typed effective values through the config service bound at boot', async ({
    assert,
  }) => {
    assert.isTrue(configValues.isBound)
    assert.strictEqual(await configValues.get('share.maxSize'), 1_000_000_000)
    await configValues.update([{ key: 'share.maxSize', value: 5000 }])
    assert.deepEqual(await configValues.getMany(['share.maxSize', 'general.appName']), {
      'share.maxSize': 5000,
      'general.appName': 'Tern',
    })
  })

  test('refuses reads before the core bound a source', async ({ assert }) => {
    const unbound = new ConfigValues()
    assert.isFalse(unbound.isBound)
    await assertRejectsWithCode(
      assert,
      () => unbound.get('share.maxSize'),
      'E_CONFIG_VALUES_UNBOUND'
    )
    await assertRejectsWithCode(
      assert,
      () => unbound.getMany(['share.maxSize']),
      'E_CONFIG_VALUES_UNBOUND'
    )
  })
})
