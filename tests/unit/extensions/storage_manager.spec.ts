import { test } from '@japa/runner'
import type { DriverContract } from 'flydrive/types'
import {
  StorageDisk,
  StorageManager,
  supportsMultipartUpload,
  supportsRandomAccessWrite,
  type MultipartUploadCapable,
  type UploadedPart,
} from '#extensions/storage/main'
import { assertRejectsWithCode } from '#tests/contracts/storage_driver_contract'
import { fakeDisk } from '#tests/helpers/storage/fake_disk'
import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'

/** A memory driver whose writes fail, to observe error wrapping. */
class FailingDriver extends MemoryStorageDriver {
  readonly failure = new Error('disk on fire')
  async put(): Promise<void> {
    throw this.failure
  }
}

/** A memory driver with a toy multipart implementation. */
class MultipartDriver extends MemoryStorageDriver implements MultipartUploadCapable {
  uploads = new Map<string, Map<number, Buffer>>()
  completedWith: UploadedPart[] = []
  async createMultipartUpload() {
    const id = `upload-${this.uploads.size + 1}`
    this.uploads.set(id, new Map())
    return id
  }
  async uploadPart(_key: string, uploadId: string, partNumber: number, contents: Uint8Array) {
    this.uploads.get(uploadId)!.set(partNumber, Buffer.from(contents))
    return { partNumber, etag: `etag-${partNumber}` }
  }
  async completeMultipartUpload(key: string, uploadId: string, parts: UploadedPart[]) {
    this.completedWith = parts
    const upload = this.uploads.get(uploadId)!
    await this.put(key, Buffer.concat(parts.map((part) => upload.get(part.partNumber)!)))
  }
  async abortMultipartUpload(_key: string, uploadId: string) {
    this.uploads.delete(uploadId)
  }
}

test.group('Storage | manager', () => {
  test('builds a disk once per name and caches the facade', ({ assert }) => {
    const manager = new StorageManager()
    let calls = 0
    manager.registerDriver('mem', () => {
      calls++
      return new MemoryStorageDriver()
    })
    const disk = manager.use('mem')
    assert.instanceOf(disk, StorageDisk)
    assert.strictEqual(manager.use('mem'), disk)
    assert.strictEqual(manager.use(), disk)
    assert.equal(calls, 1)
    manager.forget('mem')
    assert.notStrictEqual(manager.use('mem'), disk)
    assert.equal(calls, 2)
  })

  test('the first disk is the default until another asks to be', ({ assert }) => {
    const manager = new StorageManager()
    assert.isUndefined(manager.defaultName)
    manager.registerDriver('a', () => new MemoryStorageDriver())
    manager.registerDriver('b', () => new MemoryStorageDriver())
    assert.equal(manager.defaultName, 'a')
    manager.registerDriver('c', () => new MemoryStorageDriver(), { default: true })
    assert.equal(manager.use().name, 'c')
    manager.setDefault('b')
    assert.equal(manager.use().name, 'b')
    assert.deepEqual(manager.names(), ['a', 'b', 'c'])
  })

  test('refuses a second driver under a taken name', ({ assert }) => {
    const manager = new StorageManager().registerDriver('local', () => new MemoryStorageDriver())
    assert.throws(
      () => manager.registerDriver('local', () => new MemoryStorageDriver()),
      /already registered/
    )
  })

  test('unknown disks fail with E_STORAGE_DISK_UNKNOWN', ({ assert }) => {
    const manager = new StorageManager()
    for (const action of [
      () => manager.use(),
      () => manager.use('nope'),
      () => manager.setDefault('nope'),
    ]) {
      try {
        action()
        assert.fail('expected a throw')
      } catch (error) {
        assert.equal((error as { code: string }).code, 'E_STORAGE_DISK_UNKNOWN')
      }
    }
  })

  test('fake replaces a disk until restore', async ({ assert }) => {
    const manager = new StorageManager()
    const real = new MemoryStorageDriver()
    manager.registerDriver('local', () => real)
    const fake = fakeDisk('local', manager)
    assert.strictEqual(manager.use('local'), fake)
    assert.strictEqual(fakeDisk(undefined, manager), fake)
    await manager.use().put('shares/a.txt', 'faked')
    fake.assertExists('shares/a.txt')
    fake.assertMissing('shares/b.txt')
    assert.throws(() => fake.assertExists('shares/b.txt'))
    assert.throws(() => fake.assertMissing('shares/a.txt'))
    assert.deepEqual(real.keys(), [])
    manager.restore()
    assert.notStrictEqual(manager.use('local'), fake)
    assert.isFalse(await manager.use('local').exists('shares/a.txt'))
  })
})

test.group('Storage | facade', () => {
  test('wraps a driver failure in a coded error keeping the cause', async ({ assert }) => {
    const driver = new FailingDriver()
    const disk = new StorageDisk('broken', driver)
    try {
      await disk.put('a.txt', 'x')
      assert.fail('expected a rejection')
    } catch (error) {
      assert.equal((error as { code: string }).code, 'E_STORAGE_WRITE_FAILED')
      assert.equal((error as Error).message, 'Storage disk "broken" could not write "a.txt"')
      assert.strictEqual((error as Error).cause, driver.failure)
    }
  })

  test('normalises keys once at the facade', async ({ assert }) => {
    const driver = new MemoryStorageDriver()
    const disk = new StorageDisk('mem', driver)
    await disk.put('/shares//one\\file.txt/', 'x')
    assert.deepEqual(driver.keys(), ['shares/one/file.txt'])
    assert.isTrue(await disk.exists('shares/one/file.txt'))
  })

  test('capability guards follow the methods a driver implements', ({ assert }) => {
    const plain = new MemoryStorageDriver() as DriverContract
    const multipart = new MultipartDriver()
    assert.isTrue(supportsRandomAccessWrite(plain))
    assert.isFalse(supportsMultipartUpload(plain))
    assert.isTrue(supportsMultipartUpload(multipart))
    const bare = { exists: async () => false } as unknown as DriverContract
    assert.isFalse(supportsRandomAccessWrite(bare))
    assert.isFalse(supportsMultipartUpload(bare))
    assert.deepEqual(new StorageDisk('m', multipart).capabilities(), [
      'randomAccessWrite',
      'multipartUpload',
    ])
  })

  test('completes multipart uploads with the parts sorted by number', async ({ assert }) => {
    const driver = new MultipartDriver()
    const disk = new StorageDisk('s3-like', driver)
    const id = await disk.createMultipartUpload('big.bin')
    const second = await disk.uploadPart('big.bin', id, 2, Buffer.from('world'))
    const first = await disk.uploadPart('big.bin', id, 1, Buffer.from('hello '))
    await disk.completeMultipartUpload('big.bin', id, [second, first])
    assert.deepEqual(
      driver.completedWith.map((part) => part.partNumber),
      [1, 2]
    )
    assert.equal(await disk.get('big.bin'), 'hello world')
    await disk.abortMultipartUpload('big.bin', 'unknown')
    await assertRejectsWithCode(
      assert,
      () => disk.uploadPart('../x', id, 1, Buffer.from('')),
      'E_STORAGE_INVALID_KEY'
    )
  })
})
