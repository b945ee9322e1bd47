import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import {
  EVERY_DISK,
  api,
  cleanupShareTests,
  createShare,
  forEachDisk,
  newShareId,
  sendChunk,
  setConfig,
  openShare,
} from '#tests/helpers/shares'

/** A first chunk with an `Idempotency-Key` header. */
function firstChunk(
  shareId: string,
  name: string,
  totalChunks: number,
  body: Buffer | string,
  cookie: string,
  key?: string
) {
  const params = new URLSearchParams({ name, chunkIndex: '0', totalChunks: String(totalChunks) })
  return api('POST', `/api/shares/${shareId}/files?${params}`, {
    body,
    cookie,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  })
}

async function filesOf(shareId: string) {
  return ShareFile.query().where('shareId', shareId).orderBy('createdAt', 'asc')
}

forEachDisk(
  'Shares | first chunk retried with an Idempotency-Key',
  (group, disk) => {
    const CHUNK = disk.chunkSize
    group.each.setup(() => setConfig('share.chunkSize', String(CHUNK)))
    group.each.teardown(() => cleanupShareTests())

    test('a first chunk sent again with the same key lands in the same file', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK * 2 + 10)
      const part = (i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK)
      const first = await firstChunk(id, 'big.bin', 3, part(0), cookie, 'key-1')
      assert.equal(first.status, 201)
      // The answer was "lost": the client sends chunk 0 again with its key.
      const again = await firstChunk(id, 'big.bin', 3, part(0), cookie, 'key-1')
      assert.equal(again.status, 201)
      assert.deepEqual(again.json, first.json)
      for (const index of [1, 2]) {
        const response = await sendChunk(
          id,
          { name: 'big.bin', chunkIndex: index, totalChunks: 3, id: first.json.id },
          part(index),
          cookie
        )
        assert.equal(response.status, 201)
      }
      const files = await filesOf(id)
      assert.lengthOf(files, 1)
      assert.isTrue(files[0].completed)
      assert.equal(files[0].size, content.length)
      const stored = Buffer.from(await storage.use(files[0].disk).getBytes(files[0].storageKey))
      assert.isTrue(stored.subarray(0, files[0].size).equals(content))
      const completed = await api('POST', `/api/shares/${id}/complete`, { cookie })
      assert.equal(completed.status, 202)
    })

    test('a one-chunk file sent twice with its key is stored once', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const first = await firstChunk(id, 'a.txt', 1, 'hello', cookie, 'abc_DEF-123')
      const again = await firstChunk(id, 'a.txt', 1, 'hello', cookie, 'abc_DEF-123')
      assert.equal(again.status, 201)
      assert.equal(again.json.id, first.json.id)
      const files = await filesOf(id)
      assert.lengthOf(files, 1)
      assert.equal(files[0].size, 5)
      assert.deepEqual(await disk.storedKeys(id), [files[0].storageKey])
    })

    test('two first chunks with one key sent at once make one file', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK + 5)
      const answers = await Promise.all([
        firstChunk(id, 'race.bin', 2, content.subarray(0, CHUNK), cookie, 'race'),
        firstChunk(id, 'race.bin', 2, content.subarray(0, CHUNK), cookie, 'race'),
      ])
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [201, 201]
      )
      assert.equal(answers[0].json.id, answers[1].json.id)
      const last = await sendChunk(
        id,
        { name: 'race.bin', chunkIndex: 1, totalChunks: 2, id: answers[0].json.id },
        content.subarray(CHUNK),
        cookie
      )
      assert.equal(last.status, 201)
      const files = await filesOf(id)
      assert.lengthOf(files, 1)
      assert.isTrue(files[0].completed)
      assert.equal(files[0].size, content.length)
      assert.deepEqual(
        await disk.storedKeys(id),
        [files[0].storageKey],
        'the losing request left nothing stored'
      )
      assert.deepEqual(await disk.pendingUploads(), [], 'nor an open multipart upload')
    })

    test('different keys, or no key, make different files (Pingvin clients send none)', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      // First chunks of two-chunk files: all still uploading, so the one name is not yet taken (a
      // completed file's name is: see duplicate_names.spec.ts). The name is never the file's identity.
      const chunk = randomBytes(CHUNK)
      for (const key of ['k1', 'k2', undefined, undefined]) {
        assert.equal((await firstChunk(id, 'same.txt', 2, chunk, cookie, key)).status, 201)
      }
      assert.lengthOf(await filesOf(id), 4)
    })

    test('a key is scoped to its share', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const other = newShareId()
      await createShare(cookie, { id: other })
      const a = await firstChunk(id, 'x.txt', 1, 'x', cookie, 'shared-key')
      const b = await firstChunk(other, 'x.txt', 1, 'x', cookie, 'shared-key')
      assert.equal(b.status, 201)
      assert.notEqual(a.json.id, b.json.id)
    })
  },
  EVERY_DISK
)

test.group('Shares | Idempotency-Key validation', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('a malformed key is refused with 400 before anything is stored', async ({ assert }) => {
    const { id, cookie } = await openShare()
    for (const key of ['has space', 'x'.repeat(65), 'ünïcode', 'a/b']) {
      const response = await firstChunk(id, 'a.txt', 1, 'hello', cookie, key)
      assert.equal(response.status, 400, key)
      assert.match(response.json.message, /Idempotency-Key/)
    }
    assert.lengthOf(await filesOf(id), 0)
  })
})
