/**
 * The storage-driver contract suite. Any plugin providing a storage driver
 * calls `storageDriverContract(name, options)` from one of its spec files;
 * it registers a Japa group with one test per contract method and failure
 * mode, run through the `StorageDisk` facade (so key rules are checked too).
 * Optional capabilities are tested when the options declare them, and the
 * suite checks the declaration matches what the driver implements.
 */
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import type { DriverContract } from 'flydrive/types'
import { capabilitiesOf, type StorageCapability, StorageDisk } from '#extensions/storage/main'

/** Options of the contract suite. */
export interface StorageDriverContractOptions {
  /** Builds a fresh, empty driver for each test. */
  factory: () => DriverContract | Promise<DriverContract>
  /** Removes what a test left (temporary folders, buckets). */
  cleanup?: (driver: DriverContract) => void | Promise<void>
  /** The optional capabilities the driver implements (checked). */
  capabilities: StorageCapability[]
  /**
   * Runs once before the group (e.g. starts a test server); may return a
   * teardown function run after the group.
   */
  setup?: () => Promise<void | (() => void | Promise<void>)>
}

/** Awaits `action` and asserts it rejects with an error of `code`. */
export async function assertRejectsWithCode(
  assert: Assert,
  action: () => Promise<unknown>,
  code: string
) {
  try {
    await action()
  } catch (error) {
    assert.equal((error as { code?: string }).code, code, (error as Error).message)
    return
  }
  assert.fail(`expected a rejection with ${code}`)
}

/** Reads a stream to the end. */
async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** Registers the contract group for the driver built by `options.factory`. */
export function storageDriverContract(name: string, options: StorageDriverContractOptions) {
  test.group(`Storage driver contract | ${name}`, (group) => {
    let driver: DriverContract
    let disk: StorageDisk

    const setup = options.setup
    if (setup) {
      let teardown: void | (() => void | Promise<void>)
      group.setup(async () => {
        teardown = await setup()
      })
      group.teardown(async () => {
        if (teardown) await teardown()
      })
    }

    group.each.setup(async () => {
      driver = await options.factory()
      disk = new StorageDisk(name, driver)
      return () => options.cleanup?.(driver)
    })

    test('implements exactly the declared optional capabilities', ({ assert }) => {
      assert.sameMembers(capabilitiesOf(driver), options.capabilities)
    })

    test('put then get returns the same text and bytes', async ({ assert }) => {
      await disk.put('notes/hello.txt', 'héllo wörld')
      assert.equal(await disk.get('notes/hello.txt'), 'héllo wörld')
      assert.deepEqual(
        Buffer.from(await disk.getBytes('notes/hello.txt')),
        Buffer.from('héllo wörld')
      )
    })

    test('put replaces an existing object', async ({ assert }) => {
      await disk.put('a.txt', 'a much longer first version')
      await disk.put('a.txt', 'short')
      assert.equal(await disk.get('a.txt'), 'short')
    })

    test('putStream then getStream round-trips binary data', async ({ assert }) => {
      const data = randomBytes(256 * 1024 + 17)
      await disk.putStream('bin/blob', Readable.from([data.subarray(0, 1000), data.subarray(1000)]))
      assert.isTrue(data.equals(await collect(await disk.getStream('bin/blob'))))
      assert.equal((await disk.getMetaData('bin/blob')).contentLength, data.length)
    })

    test('exists is true for a stored object and false for a missing one', async ({ assert }) => {
      await disk.put('present.txt', 'x')
      assert.isTrue(await disk.exists('present.txt'))
      assert.isFalse(await disk.exists('absent.txt'))
      assert.isFalse(await disk.exists('absent/deeper.txt'))
    })

    test('reading a missing object rejects with E_STORAGE_NOT_FOUND', async ({ assert }) => {
      await assertRejectsWithCode(assert, () => disk.get('missing.txt'), 'E_STORAGE_NOT_FOUND')
      await assertRejectsWithCode(assert, () => disk.getBytes('missing.txt'), 'E_STORAGE_NOT_FOUND')
      await assertRejectsWithCode(
        assert,
        () => disk.getStream('missing.txt'),
        'E_STORAGE_NOT_FOUND'
      )
      await assertRejectsWithCode(
        assert,
        () => disk.getMetaData('missing.txt'),
        'E_STORAGE_NOT_FOUND'
      )
    })

    test('delete removes the object', async ({ assert }) => {
      await disk.put('gone.txt', 'x')
      await disk.delete('gone.txt')
      assert.isFalse(await disk.exists('gone.txt'))
    })

    test('delete of a missing key does not throw', async ({ assert }) => {
      await disk.delete('never-existed.txt')
      await disk.delete('never/existed.txt')
      assert.isFalse(await disk.exists('never-existed.txt'))
    })

    test('deleteAll removes only the given prefix', async ({ assert }) => {
      await disk.put('share-1/a', 'a')
      await disk.put('share-1/b', 'b')
      await disk.put('share-2/a', 'c')
      await disk.deleteAll('share-1')
      assert.isFalse(await disk.exists('share-1/a'))
      assert.isFalse(await disk.exists('share-1/b'))
      assert.isTrue(await disk.exists('share-2/a'))
    })

    test('deleteAll keeps keys that only share the prefix text', async ({ assert }) => {
      await disk.put('share-1/a', 'a')
      await disk.put('share-10/a', 'b')
      await disk.put('share-1.chunks/0', 'c')
      await disk.deleteAll('share-1')
      assert.isFalse(await disk.exists('share-1/a'))
      assert.isTrue(await disk.exists('share-10/a'))
      assert.isTrue(await disk.exists('share-1.chunks/0'))
    })

    test('copy and move keep the contents', async ({ assert }) => {
      await disk.put('src.txt', 'payload')
      await disk.copy('src.txt', 'copies/dst.txt')
      await disk.move('src.txt', 'moved/dst.txt')
      assert.equal(await disk.get('copies/dst.txt'), 'payload')
      assert.equal(await disk.get('moved/dst.txt'), 'payload')
      assert.isFalse(await disk.exists('src.txt'))
    })

    test('refuses path traversal and invalid keys with E_STORAGE_INVALID_KEY', async ({
      assert,
    }) => {
      for (const key of [
        '../escape.txt',
        'a/../../escape.txt',
        '..\\escape.txt',
        '',
        '   ',
        'nul\0byte',
      ]) {
        await assertRejectsWithCode(assert, () => disk.put(key, 'x'), 'E_STORAGE_INVALID_KEY')
        await assertRejectsWithCode(assert, () => disk.get(key), 'E_STORAGE_INVALID_KEY')
        await assertRejectsWithCode(assert, () => disk.delete(key), 'E_STORAGE_INVALID_KEY')
      }
      assert.isFalse(await disk.exists('escape.txt'))
    })

    if (options.capabilities.includes('randomAccessWrite')) {
      test('writeAt assembles chunks written out of order', async ({ assert }) => {
        const data = randomBytes(3 * 64 * 1024 + 123)
        const size = 64 * 1024
        const chunks = [0, 1, 2, 3].map((i) => ({
          offset: i * size,
          bytes: data.subarray(i * size, (i + 1) * size),
        }))
        for (const i of [2, 0, 3, 1])
          await disk.writeAt('parts/file.bin', chunks[i].offset, chunks[i].bytes)
        assert.isTrue(data.equals(Buffer.from(await disk.getBytes('parts/file.bin'))))
      })

      test('writeAt accepts concurrent chunks and streamed chunks', async ({ assert }) => {
        const data = randomBytes(40_000)
        await Promise.all([
          disk.writeAt(
            'parallel.bin',
            30_000,
            Readable.from([data.subarray(30_000, 35_000), data.subarray(35_000)])
          ),
          disk.writeAt('parallel.bin', 0, data.subarray(0, 10_000)),
          disk.writeAt('parallel.bin', 20_000, data.subarray(20_000, 30_000)),
          disk.writeAt('parallel.bin', 10_000, Readable.from([data.subarray(10_000, 20_000)])),
        ])
        assert.isTrue(data.equals(Buffer.from(await disk.getBytes('parallel.bin'))))
      })

      test('writeAt never truncates the object', async ({ assert }) => {
        await disk.put('keep.txt', 'abcdefghij')
        await disk.writeAt('keep.txt', 2, Buffer.from('XY'))
        assert.equal(await disk.get('keep.txt'), 'abXYefghij')
      })

      test('writeAt refuses a negative offset and traversal keys', async ({ assert }) => {
        await assertRejectsWithCode(
          assert,
          () => disk.writeAt('neg.bin', -1, Buffer.from('x')),
          'E_STORAGE_WRITE_FAILED'
        )
        await assertRejectsWithCode(
          assert,
          () => disk.writeAt('../neg.bin', 0, Buffer.from('x')),
          'E_STORAGE_INVALID_KEY'
        )
      })
    } else {
      test('writeAt rejects with E_STORAGE_UNSUPPORTED', async ({ assert }) => {
        await assertRejectsWithCode(
          assert,
          () => disk.writeAt('x.bin', 0, Buffer.from('x')),
          'E_STORAGE_UNSUPPORTED'
        )
      })
    }

    if (options.capabilities.includes('rangeRead')) {
      test('getStreamRange streams exactly the requested bytes', async ({ assert }) => {
        const data = randomBytes(3 * 1024 * 1024 + 11)
        await disk.put('ranges/blob.bin', data)
        for (const [start, end] of [
          [0, 0],
          [0, 99],
          [1000, 1999],
          [2 * 1024 * 1024 + 5, 3 * 1024 * 1024 + 10],
          [data.length - 1, data.length - 1],
        ]) {
          const bytes = await collect(await disk.getStreamRange('ranges/blob.bin', { start, end }))
          assert.isTrue(bytes.equals(data.subarray(start, end + 1)), `bytes ${start}-${end}`)
        }
      })

      test('getStreamRange stops at the last byte when the range ends past it', async ({
        assert,
      }) => {
        await disk.put('ranges/short.txt', 'abcdefghij')
        assert.equal(
          (
            await collect(await disk.getStreamRange('ranges/short.txt', { start: 7, end: 1000 }))
          ).toString(),
          'hij'
        )
      })

      test('getStreamRange rejects a missing object, a start past the end and a malformed range', async ({
        assert,
      }) => {
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('ranges/none.bin', { start: 0, end: 1 }),
          'E_STORAGE_NOT_FOUND'
        )
        await disk.put('ranges/ten.txt', 'abcdefghij')
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('ranges/ten.txt', { start: 10, end: 20 }),
          'E_STORAGE_READ_FAILED'
        )
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('ranges/ten.txt', { start: 5, end: 4 }),
          'E_STORAGE_READ_FAILED'
        )
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('ranges/ten.txt', { start: -1, end: 4 }),
          'E_STORAGE_READ_FAILED'
        )
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('../ten.txt', { start: 0, end: 4 }),
          'E_STORAGE_INVALID_KEY'
        )
      })
    } else {
      test('getStreamRange rejects with E_STORAGE_UNSUPPORTED', async ({ assert }) => {
        await disk.put('ranges/ten.txt', 'abcdefghij')
        await assertRejectsWithCode(
          assert,
          () => disk.getStreamRange('ranges/ten.txt', { start: 0, end: 1 }),
          'E_STORAGE_UNSUPPORTED'
        )
      })
    }

    if (options.capabilities.includes('multipartListing')) {
      test('listMultipartUploads lists the unfinished uploads under a folder, page by page', async ({
        assert,
      }) => {
        const started = new Date(Date.now() - 60_000)
        const a = await disk.createMultipartUpload('pending/one/a.bin')
        const b = await disk.createMultipartUpload('pending/two/b.bin')
        const c = await disk.createMultipartUpload('pending/two/b.bin')
        await disk.uploadPart('pending/one/a.bin', a, 1, randomBytes(100))
        const other = await disk.createMultipartUpload('pending-other/x.bin')
        const done = await disk.createMultipartUpload('pending/done.bin')
        await disk.completeMultipartUpload('pending/done.bin', done, [
          await disk.uploadPart('pending/done.bin', done, 1, randomBytes(10)),
        ])
        const aborted = await disk.createMultipartUpload('pending/aborted.bin')
        await disk.abortMultipartUpload('pending/aborted.bin', aborted)

        const all = await disk.listMultipartUploads('pending')
        assert.isUndefined(all.paginationToken)
        assert.sameDeepMembers(
          all.uploads.map((upload) => ({ key: upload.key, uploadId: upload.uploadId })),
          [
            { key: 'pending/one/a.bin', uploadId: a },
            { key: 'pending/two/b.bin', uploadId: b },
            { key: 'pending/two/b.bin', uploadId: c },
          ]
        )
        for (const upload of all.uploads) {
          assert.instanceOf(upload.initiatedAt, Date)
          assert.isAbove(upload.initiatedAt.getTime(), started.getTime())
        }

        const paged: string[] = []
        let token: string | undefined
        let pages = 0
        do {
          const page = await disk.listMultipartUploads('pending', {
            maxResults: 1,
            paginationToken: token,
          })
          assert.isAtMost(page.uploads.length, 1)
          paged.push(...page.uploads.map((upload) => upload.uploadId))
          token = page.paginationToken
          pages++
        } while (token && pages < 10)
        assert.sameMembers(paged, [a, b, c])
        assert.include(
          (await disk.listMultipartUploads('/')).uploads.map((upload) => upload.uploadId),
          other
        )
        for (const [key, id] of [
          ['pending/one/a.bin', a],
          ['pending/two/b.bin', b],
          ['pending/two/b.bin', c],
          ['pending-other/x.bin', other],
        ]) {
          await disk.abortMultipartUpload(key, id)
        }
        assert.deepEqual((await disk.listMultipartUploads('/')).uploads, [])
      })
    } else {
      test('listMultipartUploads rejects with E_STORAGE_UNSUPPORTED', async ({ assert }) => {
        await assertRejectsWithCode(
          assert,
          () => disk.listMultipartUploads('shares'),
          'E_STORAGE_UNSUPPORTED'
        )
      })
    }

    if (options.capabilities.includes('multipartUpload')) {
      test('a multipart upload assembles parts uploaded out of order', async ({ assert }) => {
        const parts = [randomBytes(5000), randomBytes(5000), randomBytes(100)]
        const uploadId = await disk.createMultipartUpload('multi/file.bin')
        const uploaded = []
        for (const i of [1, 2, 0])
          uploaded.push(await disk.uploadPart('multi/file.bin', uploadId, i + 1, parts[i]))
        await disk.completeMultipartUpload('multi/file.bin', uploadId, uploaded)
        assert.isTrue(
          Buffer.concat(parts).equals(Buffer.from(await disk.getBytes('multi/file.bin')))
        )
      })

      test('aborting an unknown multipart upload does not throw', async () => {
        await disk.abortMultipartUpload('multi/none.bin', 'unknown-upload-id')
      })

      test('a repeated part number replaces the part and streamed parts of known length work', async ({
        assert,
      }) => {
        const [first, second] = [randomBytes(7000), randomBytes(300)]
        const uploadId = await disk.createMultipartUpload('multi/retry.bin')
        await disk.uploadPart('multi/retry.bin', uploadId, 1, randomBytes(7000))
        const parts = [
          await disk.uploadPart('multi/retry.bin', uploadId, 2, Readable.from([second]), {
            contentLength: second.length,
          }),
          await disk.uploadPart(
            'multi/retry.bin',
            uploadId,
            1,
            Readable.from([first.subarray(0, 10), first.subarray(10)]),
            {
              contentLength: first.length,
            }
          ),
        ]
        await disk.completeMultipartUpload('multi/retry.bin', uploadId, parts)
        assert.isTrue(
          Buffer.concat([first, second]).equals(Buffer.from(await disk.getBytes('multi/retry.bin')))
        )
      })

      test('an aborted multipart upload leaves no object and cannot be completed', async ({
        assert,
      }) => {
        const uploadId = await disk.createMultipartUpload('multi/aborted.bin')
        const part = await disk.uploadPart('multi/aborted.bin', uploadId, 1, randomBytes(1000))
        await disk.abortMultipartUpload('multi/aborted.bin', uploadId)
        await assertRejectsWithCode(
          assert,
          () => disk.completeMultipartUpload('multi/aborted.bin', uploadId, [part]),
          'E_STORAGE_WRITE_FAILED'
        )
        assert.isFalse(await disk.exists('multi/aborted.bin'))
        await disk.abortMultipartUpload('multi/aborted.bin', uploadId)
      })
    } else {
      test('multipart uploads reject with E_STORAGE_UNSUPPORTED', async ({ assert }) => {
        await assertRejectsWithCode(
          assert,
          () => disk.createMultipartUpload('x.bin'),
          'E_STORAGE_UNSUPPORTED'
        )
      })
    }
  })
}
