import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { storage } from '#extensions/storage/main'
import {
  assertRejectsWithCode,
  storageDriverContract,
} from '#tests/contracts/storage_driver_contract'
import { LocalStorageDriver } from '#plugins/local-storage/index'

const roots = new WeakMap<object, string>()

storageDriverContract('local-storage', {
  capabilities: ['randomAccessWrite', 'rangeRead'],
  factory: async () => {
    const root = await mkdtemp(join(tmpdir(), 'tern-local-storage-'))
    const driver = new LocalStorageDriver({ location: root, visibility: 'private' })
    roots.set(driver, root)
    return driver
  },
  cleanup: (driver) => rm(roots.get(driver)!, { recursive: true, force: true }),
})

test.group('Local storage | driver', (group) => {
  let root: string
  group.each.setup(async () => {
    root = await mkdtemp(join(tmpdir(), 'tern-local-storage-'))
    return () => rm(root, { recursive: true, force: true })
  })

  test('refuses a key leaving the root even when called without the facade', async ({ assert }) => {
    const driver = new LocalStorageDriver({ location: join(root, 'disk'), visibility: 'private' })
    await assert.rejects(
      () => driver.writeAt('../outside.bin', 0, Buffer.from('x')),
      /outside the disk root/
    )
    await assert.rejects(() => driver.getStream('../outside.bin'), /outside the disk root/)
    await assert.rejects(() => driver.sync('../outside.bin'), /outside the disk root/)
  })

  test('writeAt makes missing folders on the first write only, then writes into the file it finds', async ({
    assert,
  }) => {
    const driver = new LocalStorageDriver({ location: join(root, 'disk'), visibility: 'private' })
    // Streamed (the chunk path) and buffered, each into folders that do not exist yet.
    await driver.writeAt('a/b/streamed.bin', 3, Readable.from([Buffer.from('def')]))
    await driver.writeAt('a/b/streamed.bin', 0, Readable.from([Buffer.from('abc')]))
    assert.equal(await readFile(join(root, 'disk/a/b/streamed.bin'), 'utf8'), 'abcdef')
    await driver.writeAt('c/d/buffered.bin', 2, Buffer.from('34'))
    await driver.writeAt('c/d/buffered.bin', 0, Buffer.from('12'))
    assert.equal(await readFile(join(root, 'disk/c/d/buffered.bin'), 'utf8'), '1234')
    // A folder removed between two writes is made again.
    await rm(join(root, 'disk/a'), { recursive: true })
    await driver.writeAt('a/b/streamed.bin', 0, Readable.from([Buffer.from('again')]))
    assert.equal(await readFile(join(root, 'disk/a/b/streamed.bin'), 'utf8'), 'again')
    // Any other failure of the open is not hidden: a "folder" that is a file.
    await writeFile(join(root, 'disk/plain'), 'x')
    await assert.rejects(() => driver.writeAt('plain/file.bin', 0, Buffer.from('x')), /ENOTDIR/)
  })
})

test.group('Local storage | plugin', () => {
  test('registers the default disk "local" under DATA_DIR/uploads', async ({ assert }) => {
    assert.equal(storage.defaultName, 'local')
    const key = `contract-check/${Date.now()}.txt`
    await storage.use('local').put(key, 'stored by the local plugin')
    assert.equal(
      await readFile(join(process.env.DATA_DIR!, 'uploads', key), 'utf8'),
      'stored by the local plugin'
    )
    await storage.use().delete(key)
    await assertRejectsWithCode(assert, () => storage.use('local').get(key), 'E_STORAGE_NOT_FOUND')
  })

  test('offers random-access writes through the facade', async ({ assert }) => {
    const disk = storage.use('local')
    assert.isTrue(disk.supports('randomAccessWrite'))
    const key = `contract-check/${Date.now()}-chunks.bin`
    await disk.writeAt(key, 3, Buffer.from('def'))
    await disk.writeAt(key, 0, Buffer.from('abc'))
    assert.equal(await disk.get(key), 'abcdef')
    await disk.delete(key)
  })

  test('flushes a file to disk through the facade; a missing file is a storage error', async ({
    assert,
  }) => {
    const disk = storage.use('local')
    const key = `contract-check/${Date.now()}-sync.bin`
    await disk.writeAt(key, 0, Buffer.from('durable'))
    await disk.sync(key)
    assert.equal(await disk.get(key), 'durable')
    await disk.delete(key)
    await assertRejectsWithCode(assert, () => disk.sync(key), 'E_STORAGE_WRITE_FAILED')
  })
})
