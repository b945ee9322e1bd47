/**
 * The GCS driver against the Cloud Storage emulator of firebase-tools: the
 * storage contract suite (bucket root and `gcs.bucketPath` prefix), compose
 * in rounds, parallel parts, aborts and settings changes.
 */
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import { Storage } from '@google-cloud/storage'
import { chunkedUploadStrategy, StorageDisk } from '#extensions/storage/main'
import {
  assertRejectsWithCode,
  storageDriverContract,
} from '#tests/contracts/storage_driver_contract'
import { GcsStorageDriver, GCS_MAX_COMPOSE_SOURCES } from '#plugins/gcs-storage/index'
import { startGcsEmulator, type GcsEmulator } from '../emulator/gcs_emulator.js'

/** Every object name of `bucket`, sorted (read with a client of its own). */
async function bucketNames(emulator: GcsEmulator, bucket = emulator.bucket): Promise<string[]> {
  const client = new Storage({
    projectId: emulator.projectId,
    credentials: JSON.parse(emulator.credentials),
  })
  const [files] = await client.bucket(bucket).getFiles()
  return files.map((file) => file.name).sort()
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

let emulator: GcsEmulator
let count = 0

for (const bucketPath of ['', 'tern/uploads']) {
  storageDriverContract(`gcs-storage (${bucketPath ? 'bucket path' : 'bucket root'})`, {
    capabilities: ['multipartUpload', 'rangeRead', 'multipartListing'],
    setup: async () => {
      emulator = await startGcsEmulator()
      return () => emulator.close()
    },
    factory: () => {
      const settings = emulator.settings({ bucketName: `contract-${++count}`, bucketPath })
      return new GcsStorageDriver({ settings: () => settings })
    },
    cleanup: async (driver) => {
      await driver.deleteAll('/')
    },
  })
}

test.group('GCS storage | driver', (group) => {
  group.setup(async () => {
    emulator = await startGcsEmulator({ bucket: 'driver' })
    return () => emulator.close()
  })

  test('picks compose-based multipart uploads for chunks of any size', ({ assert }) => {
    const disk = new StorageDisk(
      'gcs',
      new GcsStorageDriver({ settings: () => emulator.settings() })
    )
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 1000, totalChunks: 1 }), 'single')
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 1000, totalChunks: 3 }), 'multipart')
    assert.equal(
      chunkedUploadStrategy(disk, { chunkSize: 10_000_000, totalChunks: 10_000 }),
      'multipart'
    )
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 1000, totalChunks: 10_001 }), 'staged')
    assert.deepEqual(disk.capabilities(), ['multipartUpload', 'rangeRead', 'multipartListing'])
  })

  test('composes more than 32 parts uploaded in parallel, in rounds, and leaves no part behind', async ({
    assert,
  }) => {
    const driver = new GcsStorageDriver({
      settings: () => emulator.settings({ bucketPath: 'rounds' }),
    })
    const disk = new StorageDisk('gcs', driver)
    const size = 1000
    const total = 2 * GCS_MAX_COMPOSE_SOURCES + 6 // 70 parts: 3 intermediate objects, then the final compose
    const data = randomBytes(total * size - 123)
    const chunk = (i: number) => data.subarray(i * size, Math.min((i + 1) * size, data.length))
    const order = Array.from({ length: total }, (_, i) => i).sort(() => Math.random() - 0.5)

    const uploadId = await disk.createMultipartUpload('share/big.bin', {
      contentType: 'application/pdf',
    })
    const parts = []
    for (let i = 0; i < order.length; i += 64) {
      parts.push(
        ...(await Promise.all(
          order.slice(i, i + 64).map((index) =>
            disk.uploadPart('share/big.bin', uploadId, index + 1, Readable.from([chunk(index)]), {
              contentLength: chunk(index).length,
            })
          )
        ))
      )
    }
    await disk.completeMultipartUpload('share/big.bin', uploadId, parts)

    assert.isTrue(data.equals(await collect(await disk.getStream('share/big.bin'))))
    const meta = await disk.getMetaData('share/big.bin')
    assert.equal(meta.contentLength, data.length)
    assert.equal(meta.contentType, 'application/pdf')
    assert.deepEqual(await bucketNames(emulator), ['rounds/share/big.bin'])
    assert.deepEqual((await disk.listMultipartUploads('/')).uploads, [])
    await disk.deleteAll('/')
  }).timeout(60_000)

  test('composes the generation each part reported: a stale etag is refused', async ({
    assert,
  }) => {
    const driver = new GcsStorageDriver({
      settings: () => emulator.settings({ bucketPath: 'stale' }),
    })
    const disk = new StorageDisk('gcs', driver)
    const uploadId = await disk.createMultipartUpload('f.bin')
    const first = await disk.uploadPart('f.bin', uploadId, 1, Buffer.from('one'))
    await new Promise((resolve) => setTimeout(resolve, 5))
    await disk.uploadPart('f.bin', uploadId, 1, Buffer.from('ONE'))
    await assertRejectsWithCode(
      assert,
      () => disk.completeMultipartUpload('f.bin', uploadId, [first]),
      'E_STORAGE_WRITE_FAILED'
    )
    assert.isFalse(await disk.exists('f.bin'))
    await disk.abortMultipartUpload('f.bin', uploadId)
    assert.deepEqual(await bucketNames(emulator), [])
  })

  test('refuses parts of an unknown or aborted upload and leaves nothing of them', async ({
    assert,
  }) => {
    const driver = new GcsStorageDriver({
      settings: () => emulator.settings({ bucketPath: 'aborts' }),
    })
    const disk = new StorageDisk('gcs', driver)
    const uploadId = await disk.createMultipartUpload('a.bin')
    await disk.uploadPart('a.bin', uploadId, 1, randomBytes(100))
    await disk.abortMultipartUpload('a.bin', uploadId)
    await assertRejectsWithCode(
      assert,
      () => disk.uploadPart('a.bin', uploadId, 2, randomBytes(100)),
      'E_STORAGE_WRITE_FAILED'
    )
    await assertRejectsWithCode(
      assert,
      () => disk.uploadPart('a.bin', '0123456789abcdef0123456789abcdef', 1, randomBytes(100)),
      'E_STORAGE_WRITE_FAILED'
    )
    await assert.rejects(
      () => driver.uploadPart('a.bin', uploadId, 0, Buffer.from('x')),
      /Part number/
    )
    await assert.rejects(
      () => driver.uploadPart('a.bin', uploadId, 1, Readable.from([Buffer.from('x')])),
      /contentLength/
    )
    assert.deepEqual(await bucketNames(emulator), [])
  })

  test('a body stream failing midway rejects with its error and stores nothing', async ({
    assert,
  }) => {
    const driver = new GcsStorageDriver({
      settings: () => emulator.settings({ bucketPath: 'broken' }),
    })
    async function* failing() {
      yield randomBytes(1000)
      await new Promise((resolve) => setTimeout(resolve, 20))
      throw new Error('client went away')
    }
    await assert.rejects(
      () => driver.putStream('x.bin', Readable.from(failing())),
      /client went away/
    )
    const uploadId = await driver.createMultipartUpload('y.bin')
    await assert.rejects(
      () =>
        driver.uploadPart('y.bin', uploadId, 1, Readable.from(failing()), { contentLength: 5000 }),
      /client went away/
    )
    await driver.abortMultipartUpload('y.bin', uploadId)
    assert.deepEqual(await bucketNames(emulator), [])
  })

  test('uses the bucket and prefix changed in the settings at the next operation', async ({
    assert,
  }) => {
    let settings = emulator.settings({ bucketName: 'first-bucket', bucketPath: 'a' })
    const driver = new GcsStorageDriver({ settings: () => settings })
    await driver.put('x.txt', 'one')
    settings = emulator.settings({ bucketName: 'second-bucket', bucketPath: 'b' })
    await driver.put('x.txt', 'two')
    assert.deepEqual(await bucketNames(emulator, 'first-bucket'), ['a/x.txt'])
    assert.deepEqual(await bucketNames(emulator, 'second-bucket'), ['b/x.txt'])
    assert.equal(await driver.get('x.txt'), 'two')
    await driver.deleteAll('/')
    settings = emulator.settings({ bucketName: 'first-bucket', bucketPath: 'a' })
    await driver.deleteAll('/')
  })

  test('empty objects round-trip, stream empty, and have no byte to range over', async ({
    assert,
  }) => {
    const disk = new StorageDisk(
      'gcs',
      new GcsStorageDriver({ settings: () => emulator.settings({ bucketPath: 'empty' }) })
    )
    await disk.putStream('share/empty.txt', Readable.from([]), { contentLength: 0 })
    assert.equal((await disk.getMetaData('share/empty.txt')).contentLength, 0)
    assert.equal((await collect(await disk.getStream('share/empty.txt'))).length, 0)
    await assertRejectsWithCode(
      assert,
      () => disk.getStreamRange('share/empty.txt', { start: 0, end: 0 }),
      'E_STORAGE_READ_FAILED'
    )
    await disk.deleteAll('/')
    assert.deepEqual(await bucketNames(emulator), [])
  })

  test('refuses keys that would leave the prefix even when called without the facade', async ({
    assert,
  }) => {
    const driver = new GcsStorageDriver({
      settings: () => emulator.settings({ bucketPath: 'tenant-a' }),
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
    assert.deepEqual(await bucketNames(emulator), [])
  })

  test('rejects every operation while no bucket is configured', async ({ assert }) => {
    const disk = new StorageDisk(
      'gcs',
      new GcsStorageDriver({ settings: () => emulator.settings({ bucketName: '' }) })
    )
    await assertRejectsWithCode(assert, () => disk.put('x.txt', 'x'), 'E_STORAGE_WRITE_FAILED')
    try {
      await disk.put('x.txt', 'x')
    } catch (error) {
      assert.match(String((error as Error).cause), /gcs\.bucketName/)
    }
  })
})
