import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { StorageDisk } from '#extensions/storage/main'
import {
  assertRejectsWithCode,
  storageDriverContract,
} from '#tests/contracts/storage_driver_contract'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'
import { S3StorageDriver, type S3Settings } from '#plugins/s3-storage/index'

/** Settings pointing at `server`, bucket and prefix as given. */
function settingsFor(server: S3Server, overrides: Partial<S3Settings> = {}): S3Settings {
  return {
    endpoint: server.endpoint,
    region: '',
    bucketName: server.bucket,
    bucketPath: '',
    key: server.accessKeyId,
    secret: server.secretAccessKey,
    forcePathStyle: true,
    ...overrides,
  }
}

/** A raw S3 client on `server` (to look at the bucket without the driver). */
function rawClient(server: S3Server): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  })
}

/** Every key of `bucket`, sorted. */
async function bucketKeys(client: S3Client, bucket: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
  return (page.Contents ?? []).map((object) => object.Key!).sort()
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

let bucketServer: S3Server
let bucketClient: S3Client
let bucketCount = 0

storageDriverContract('s3-storage (bucket root)', {
  capabilities: ['multipartUpload', 'rangeRead', 'multipartListing'],
  setup: async () => {
    bucketServer = await startS3Server({ bucket: 'contract' })
    bucketClient = rawClient(bucketServer)
    return async () => {
      bucketClient.destroy()
      await bucketServer.close()
    }
  },
  factory: async () => {
    const bucketName = `contract-${++bucketCount}`
    await bucketClient.send(new CreateBucketCommand({ Bucket: bucketName }))
    return new S3StorageDriver({ settings: () => settingsFor(bucketServer, { bucketName }) })
  },
  cleanup: (driver) => (driver as S3StorageDriver).close(),
})

let prefixServer: S3Server
let prefixCount = 0

storageDriverContract('s3-storage (bucketPath prefix)', {
  capabilities: ['multipartUpload', 'rangeRead', 'multipartListing'],
  setup: async () => {
    prefixServer = await startS3Server({ bucket: 'contract' })
    return () => prefixServer.close()
  },
  factory: () => {
    const settings = settingsFor(prefixServer, { bucketPath: `tern/test-${++prefixCount}` })
    return new S3StorageDriver({ settings: () => settings })
  },
  cleanup: async (driver) => {
    await driver.deleteAll('/')
    ;(driver as S3StorageDriver).close()
  },
})

test.group('S3 storage | driver', (group) => {
  let s3: S3Server
  let client: S3Client

  group.setup(async () => {
    s3 = await startS3Server({ bucket: 'tern', extraBuckets: ['other'] })
    client = rawClient(s3)
    return async () => {
      client.destroy()
      await s3.close()
    }
  })

  group.each.setup(async () => {
    return async () => {
      for (const bucket of ['tern', 'other']) {
        const driver = new S3StorageDriver({
          settings: () => settingsFor(s3, { bucketName: bucket }),
        })
        await driver.deleteAll('/')
        driver.close()
      }
    }
  })

  test('keeps every object under s3.bucketPath and lists keys relative to it', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({
      settings: () => settingsFor(s3, { bucketPath: 'tern/files' }),
    })
    const disk = new StorageDisk('s3', driver)
    await disk.put('share-1/a.txt', 'a')
    await disk.put('share-1/deep/b.txt', 'b')
    assert.deepEqual(await bucketKeys(client, 'tern'), [
      'tern/files/share-1/a.txt',
      'tern/files/share-1/deep/b.txt',
    ])

    const flat = [...(await disk.listAll('share-1')).objects].map((o) =>
      'key' in o ? o.key : `${o.prefix}/`
    )
    assert.sameMembers(flat, ['share-1/a.txt', 'share-1/deep/'])
    const deep = [...(await disk.listAll('/', { recursive: true })).objects].map((o) =>
      'key' in o ? o.key : ''
    )
    assert.sameMembers(deep, ['share-1/a.txt', 'share-1/deep/b.txt'])
    driver.close()
  })

  test('refuses keys that would leave the prefix even when called without the facade', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({
      settings: () => settingsFor(s3, { bucketPath: 'tenant-a' }),
    })
    for (const key of [
      '../tenant-b/x.txt',
      'a/../../tenant-b/x.txt',
      '/x.txt',
      './x.txt',
      'a\\..\\x',
      '',
    ]) {
      await assert.rejects(() => driver.put(key, 'x'), /Invalid key/)
      await assert.rejects(() => driver.getStream(key), /Invalid key/)
      await assert.rejects(() => driver.createMultipartUpload(key), /Invalid key/)
    }
    await assertRejectsWithCode(
      assert,
      () => new StorageDisk('s3', driver).put('../tenant-b/x.txt', 'x'),
      'E_STORAGE_INVALID_KEY'
    )
    assert.deepEqual(await bucketKeys(client, 'tern'), [])
    driver.close()
  })

  test('uploads parts sent out of order, streamed with their length, into the exact bytes', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({ settings: () => settingsFor(s3, { bucketPath: 'mp' }) })
    const disk = new StorageDisk('s3', driver)
    const size = 64 * 1024
    const data = randomBytes(4 * size + 999)
    const chunks = [0, 1, 2, 3, 4].map((i) =>
      data.subarray(i * size, Math.min((i + 1) * size, data.length))
    )

    const uploadId = await disk.createMultipartUpload('share/file.bin', {
      contentType: 'application/pdf',
    })
    const parts = await Promise.all(
      [3, 0, 4, 2, 1].map((i) =>
        disk.uploadPart('share/file.bin', uploadId, i + 1, Readable.from([chunks[i]]), {
          contentLength: chunks[i].length,
        })
      )
    )
    await disk.completeMultipartUpload('share/file.bin', uploadId, parts)

    assert.isTrue(data.equals(await collect(await disk.getStream('share/file.bin'))))
    const meta = await disk.getMetaData('share/file.bin')
    assert.equal(meta.contentLength, data.length)
    assert.equal(meta.contentType, 'application/pdf')
    assert.deepEqual(await s3.pendingUploads(), [])
    driver.close()
  })

  test('an aborted upload leaves neither parts nor an object', async ({ assert }) => {
    const driver = new S3StorageDriver({ settings: () => settingsFor(s3) })
    const disk = new StorageDisk('s3', driver)
    const uploadId = await disk.createMultipartUpload('share/aborted.bin')
    await disk.uploadPart('share/aborted.bin', uploadId, 2, randomBytes(2000))
    await disk.uploadPart('share/aborted.bin', uploadId, 1, randomBytes(2000))
    assert.deepEqual(await s3.pendingUploads(), [uploadId])

    await disk.abortMultipartUpload('share/aborted.bin', uploadId)
    assert.deepEqual(await s3.pendingUploads(), [])
    assert.deepEqual(await bucketKeys(client, 'tern'), [])
    await assertRejectsWithCode(
      assert,
      () => disk.completeMultipartUpload('share/aborted.bin', uploadId, []),
      'E_STORAGE_WRITE_FAILED'
    )
    assert.deepEqual(await bucketKeys(client, 'tern'), [])
    driver.close()
  })

  test('refuses a streamed part without its length and part numbers outside 1..10000', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({ settings: () => settingsFor(s3) })
    const uploadId = await driver.createMultipartUpload('x.bin')
    await assert.rejects(
      () => driver.uploadPart('x.bin', uploadId, 1, Readable.from([Buffer.from('x')])),
      /contentLength/
    )
    await assert.rejects(
      () => driver.uploadPart('x.bin', uploadId, 0, Buffer.from('x')),
      /Part number/
    )
    await assert.rejects(
      () => driver.uploadPart('x.bin', uploadId, 10_001, Buffer.from('x')),
      /Part number/
    )
    await driver.abortMultipartUpload('x.bin', uploadId)
    driver.close()
  })

  test('a body stream failing midway rejects the part with its error instead of hanging', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({ settings: () => settingsFor(s3) })
    const uploadId = await driver.createMultipartUpload('broken.bin')
    async function* failing() {
      yield randomBytes(1000)
      await new Promise((resolve) => setTimeout(resolve, 20))
      throw new Error('client went away')
    }
    await assert.rejects(
      () =>
        driver.uploadPart('broken.bin', uploadId, 1, Readable.from(failing()), {
          contentLength: 5000,
        }),
      /client went away/
    )
    await assert.rejects(
      () => driver.putStream('broken.bin', Readable.from(failing()), { contentLength: 5000 }),
      /client went away/
    )
    await driver.abortMultipartUpload('broken.bin', uploadId)
    // (s3rver keeps a truncated PUT body as an object; Amazon S3 refuses a short body.)
    assert.deepEqual(await s3.pendingUploads(), [])
    driver.close()
  })

  test('putStream of unknown length goes up in parts, one part in memory at a time', async ({
    assert,
  }) => {
    const driver = new S3StorageDriver({
      settings: () => settingsFor(s3),
      streamPartSize: 5 * 1024 * 1024,
    })
    const data = randomBytes(11 * 1024 * 1024 + 5)
    const pieces = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) =>
      data.subarray(i * 65536, (i + 1) * 65536)
    )
    await driver.putStream('big.bin', Readable.from(pieces))
    assert.isTrue(data.equals(Buffer.from(await driver.getBytes('big.bin'))))
    assert.deepEqual(await s3.pendingUploads(), [])
    driver.close()
  })

  test('putStream with a known length streams one PUT', async ({ assert }) => {
    const driver = new S3StorageDriver({ settings: () => settingsFor(s3) })
    const data = randomBytes(100_000)
    await driver.putStream('known.bin', Readable.from([data.subarray(0, 50), data.subarray(50)]), {
      contentLength: data.length,
    })
    assert.isTrue(data.equals(Buffer.from(await driver.getBytes('known.bin'))))
    driver.close()
  })

  test('copies keys with spaces and special characters', async ({ assert }) => {
    const driver = new S3StorageDriver({
      settings: () => settingsFor(s3, { bucketPath: 'with space' }),
    })
    await driver.put('a b/my file!.txt', 'hello')
    await driver.copy('a b/my file!.txt', 'c d/copy of file.txt')
    assert.equal(await driver.get('c d/copy of file.txt'), 'hello')
    driver.close()
  })

  test('rebuilds its client when the settings change, without a restart', async ({ assert }) => {
    let settings = settingsFor(s3, { bucketName: 'tern', bucketPath: 'first' })
    const driver = new S3StorageDriver({ settings: () => settings })
    await driver.put('x.txt', 'one')

    settings = settingsFor(s3, { bucketName: 'other', bucketPath: 'second' })
    await driver.put('x.txt', 'two')
    assert.deepEqual(await bucketKeys(client, 'tern'), ['first/x.txt'])
    assert.deepEqual(await bucketKeys(client, 'other'), ['second/x.txt'])
    assert.equal(await driver.get('x.txt'), 'two')

    settings = { ...settings, key: 'UNKNOWN-KEY' }
    await assert.rejects(() => driver.get('x.txt'), /Access Key Id/)
    driver.close()
  })

  test('keeps a download stream readable while its settings change', async ({ assert }) => {
    let settings = settingsFor(s3)
    const driver = new S3StorageDriver({ settings: () => settings })
    const data = randomBytes(2 * 1024 * 1024)
    await driver.put('stream.bin', data)
    const stream = await driver.getStream('stream.bin')
    settings = settingsFor(s3, { bucketName: 'other' })
    assert.isFalse(await driver.exists('stream.bin'))
    assert.isTrue(data.equals(await collect(stream)))
    driver.close()
  })

  test('rejects every operation while no bucket is configured', async ({ assert }) => {
    const disk = new StorageDisk(
      's3',
      new S3StorageDriver({ settings: () => settingsFor(s3, { bucketName: '' }) })
    )
    await assertRejectsWithCode(assert, () => disk.put('x.txt', 'x'), 'E_STORAGE_WRITE_FAILED')
    await assertRejectsWithCode(assert, () => disk.exists('x.txt'), 'E_STORAGE_OPERATION_FAILED')
    try {
      await disk.put('x.txt', 'x')
    } catch (error) {
      assert.match(String((error as Error).cause), /s3\.bucketName/)
    }
  })
})
