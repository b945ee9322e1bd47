import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import {
  assembleStagedChunks,
  chunkedUploadStrategy,
  DEFAULT_MULTIPART_LIMITS,
  partNumberOfChunk,
  stagedChunkKey,
  StorageDisk,
} from '#extensions/storage/main'
import { LocalStorageDriver } from '#plugins/local-storage/index'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'
import { S3StorageDriver } from '#plugins/s3-storage/index'

const MiB = 1024 * 1024

test.group('S3 storage | chunked uploads', (group) => {
  let s3: S3Server
  let driver: S3StorageDriver
  let disk: StorageDisk
  let count = 0

  group.setup(async () => {
    s3 = await startS3Server({ bucket: 'chunks' })
    return () => s3.close()
  })

  group.each.setup(() => {
    const settings = {
      endpoint: s3.endpoint,
      region: '',
      bucketName: s3.bucket,
      bucketPath: `run-${++count}`,
      key: s3.accessKeyId,
      secret: s3.secretAccessKey,
      forcePathStyle: true,
    }
    driver = new S3StorageDriver({ settings: () => settings })
    disk = new StorageDisk('s3', driver)
    return async () => {
      await disk.deleteAll('/')
      driver.close()
    }
  })

  test('maps chunks to parts only when every chunk but the last can be an S3 part', async ({
    assert,
  }) => {
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 10_000_000, totalChunks: 1 }), 'single')
    assert.equal(
      chunkedUploadStrategy(disk, { chunkSize: 10_000_000, totalChunks: 3 }),
      'multipart'
    )
    assert.equal(
      chunkedUploadStrategy(disk, { chunkSize: 5 * MiB, totalChunks: 10_000 }),
      'multipart'
    )
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 5 * MiB - 1, totalChunks: 3 }), 'staged')
    assert.equal(chunkedUploadStrategy(disk, { chunkSize: 5 * MiB, totalChunks: 10_001 }), 'staged')
    assert.equal(
      chunkedUploadStrategy(disk, { chunkSize: 6 * 1024 * MiB, totalChunks: 2 }),
      'staged'
    )
    assert.equal(partNumberOfChunk(0), 1)
    assert.equal(driver.multipartLimits, DEFAULT_MULTIPART_LIMITS)

    const root = await mkdtemp(join(tmpdir(), 'tern-chunks-'))
    const local = new StorageDisk(
      'local',
      new LocalStorageDriver({ location: root, visibility: 'private' })
    )
    assert.equal(chunkedUploadStrategy(local, { chunkSize: 1000, totalChunks: 3 }), 'randomAccess')
    await rm(root, { recursive: true, force: true })
  })

  test('assembles small staged chunks received out of order into a multipart object', async ({
    assert,
  }) => {
    const chunkSize = 1 * MiB
    const data = randomBytes(12 * chunkSize + 4321)
    const sizes = Array.from({ length: 13 }, (_, i) =>
      Math.min(chunkSize, data.length - i * chunkSize)
    )
    for (const i of [12, 3, 0, 7, 1, 2, 5, 4, 6, 9, 8, 11, 10]) {
      const bytes = data.subarray(i * chunkSize, i * chunkSize + sizes[i])
      await disk.putStream(stagedChunkKey('share/file', i), Readable.from([bytes]), {
        contentLength: bytes.length,
      })
    }
    await assembleStagedChunks(disk, 'share/file', sizes, { contentType: 'text/plain' })

    assert.isTrue(data.equals(Buffer.from(await disk.getBytes('share/file'))))
    assert.equal((await disk.getMetaData('share/file')).contentType, 'text/plain')
    assert.isFalse(await disk.exists(stagedChunkKey('share/file', 0)))
    const left = [...(await disk.listAll('share', { recursive: true })).objects].map((o) =>
      'key' in o ? o.key : ''
    )
    assert.deepEqual(left, ['share/file'])
    assert.deepEqual(await s3.pendingUploads(), [])
  })

  test('assembles staged chunks below one part with a single PUT', async ({ assert }) => {
    const parts = [randomBytes(1000), randomBytes(1000), randomBytes(10)]
    for (const [i, bytes] of parts.entries())
      await disk.put(stagedChunkKey('share/small', i), bytes)
    await assembleStagedChunks(
      disk,
      'share/small',
      parts.map((p) => p.length)
    )
    assert.isTrue(Buffer.concat(parts).equals(Buffer.from(await disk.getBytes('share/small'))))
    assert.isFalse(await disk.exists(stagedChunkKey('share/small', 2)))
  })

  test('refuses staged chunks that do not add up and keeps them for a retry', async ({
    assert,
  }) => {
    const chunk = randomBytes(3 * MiB)
    for (const i of [0, 1]) await disk.put(stagedChunkKey('share/bad', i), chunk)
    await assert.rejects(() => assembleStagedChunks(disk, 'share/bad', [3 * MiB, 3 * MiB + 1]))
    await assert.rejects(() => assembleStagedChunks(disk, 'share/bad', [3 * MiB, 3 * MiB - 1]))
    await assert.rejects(() => assembleStagedChunks(disk, 'share/bad', [3 * MiB, 3 * MiB, 10]))
    assert.isFalse(await disk.exists('share/bad'))
    assert.isTrue(await disk.exists(stagedChunkKey('share/bad', 1)))
    assert.deepEqual(await s3.pendingUploads(), [])
  })

  test('stages and assembles on a disk without multipart uploads too', async ({ assert }) => {
    const root = await mkdtemp(join(tmpdir(), 'tern-chunks-'))
    const local = new StorageDisk(
      'local',
      new LocalStorageDriver({ location: root, visibility: 'private' })
    )
    const parts = [randomBytes(5000), randomBytes(7)]
    for (const [i, bytes] of parts.entries()) await local.put(stagedChunkKey('s/f', i), bytes)
    await assembleStagedChunks(
      local,
      's/f',
      parts.map((p) => p.length)
    )
    assert.isTrue(Buffer.concat(parts).equals(Buffer.from(await local.getBytes('s/f'))))
    assert.isFalse(await local.exists(stagedChunkKey('s/f', 0)))
    await rm(root, { recursive: true, force: true })
  })
})
