import { randomBytes, randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import {
  api,
  cleanupShareTests,
  LOCAL_DISK,
  forEachDisk,
  sendChunk,
  setConfig,
  shareUser,
  openShare,
} from '#tests/helpers/shares'

/**
 * A later chunk (one that names its file) reads its share, file and upload
 * session in one joined query (findShareForChunk). The answers must stay
 * those of the separate lookups: share first, then the caller, then the file.
 */
forEachDisk(
  'Shares | a later chunk reads its share and file together',
  (group, disk) => {
    const CHUNK = disk.chunkSize
    group.each.setup(() => setConfig('share.chunkSize', String(CHUNK)))
    group.each.teardown(() => cleanupShareTests())

    test('unknown share with a well-formed file id: 404 Share not found; a malformed id: the validator', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const unknown = await sendChunk(
        'no-such-share',
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: randomUUID() },
        'x',
        cookie
      )
      assert.equal(unknown.status, 404)
      assert.equal(unknown.json.message, 'Share not found')

      const malformed = await api(
        'POST',
        `/api/shares/${id}/files?name=a.bin&chunkIndex=1&totalChunks=2&id=not-a-uuid`,
        {
          body: 'x',
          cookie,
        }
      )
      assert.equal(malformed.status, 400)
      assert.isArray(malformed.json.message)
    })

    test('another caller with the real file id is refused; the owner continues the file', async ({
      assert,
    }) => {
      const owner = await openShare()
      const stranger = await shareUser()
      const first = await sendChunk(
        owner.id,
        { name: 'a.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(CHUNK),
        owner.cookie
      )
      assert.equal(first.status, 201)

      const refused = await sendChunk(
        owner.id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id },
        'x',
        stranger.cookie
      )
      assert.equal(refused.status, 403)
      const anonymous = await sendChunk(
        owner.id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id },
        'x',
        null
      )
      assert.equal(anonymous.status, 401)
      assert.isNotNull(
        await UploadSession.findBy('fileId', first.json.id),
        'the refused chunks changed nothing'
      )

      const last = await sendChunk(
        owner.id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id },
        'xyz',
        owner.cookie
      )
      assert.equal(last.status, 201)
      assert.deepEqual(last.json, first.json)
      const file = await ShareFile.findOrFail(first.json.id)
      assert.isTrue(file.completed)
      assert.equal(file.size, CHUNK + 3)

      // Sent again after completion (a retried last chunk): the file's outcome, not an error.
      const again = await sendChunk(
        owner.id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id },
        'xyz',
        owner.cookie
      )
      assert.equal(again.status, 201)
      assert.deepEqual(again.json, first.json)
    })

    test('a file id of the same share that does not exist: 404 File not found', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const missing = await sendChunk(
        id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: randomUUID() },
        'x',
        cookie
      )
      assert.equal(missing.status, 404)
      assert.equal(missing.json.message, 'File not found')
    })
  },
  [LOCAL_DISK]
)
