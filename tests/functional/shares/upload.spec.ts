import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { test } from '@japa/runner'
import ShareFile from '#models/share_file'
import UploadChunk from '#models/upload_chunk'
import UploadSession from '#models/upload_session'
import {
  api,
  baseUrl,
  ChunkedUpload,
  cleanupShareTests,
  EVERY_DISK,
  forEachDisk,
  openShare,
  sendChunk,
  setConfig,
  uploadFile,
  storedBytes,
} from '#tests/helpers/shares'

/** POSTs `pieces` with no Content-Length (chunked transfer encoding); resolves to the status. */
function postWithoutLength(path: string, cookie: string | null, pieces: Buffer[]) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${baseUrl()}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'cookie': cookie! },
      },
      (response) => {
        response.resume()
        resolve(response.statusCode!)
      }
    )
    request.on('error', reject)
    for (const piece of pieces) request.write(piece)
    request.end()
  })
}

forEachDisk(
  'Shares | chunk upload protocol',
  (group, disk) => {
    const CHUNK = disk.chunkSize
    group.each.setup(() => setConfig('share.chunkSize', String(CHUNK)))
    group.each.teardown(() => cleanupShareTests())

    /** Asserts the share holds exactly its files on the disk: no staged chunk, no open multipart upload. */
    async function assertOnlyFiles(
      assert: import('@japa/assert').Assert,
      shareId: string,
      fileIds: string[]
    ) {
      const keys = await Promise.all(
        fileIds.map(async (fileId) => (await ShareFile.findOrFail(fileId)).storageKey)
      )
      assert.deepEqual(await disk.storedKeys(shareId), keys.sort())
      assert.deepEqual(await disk.pendingUploads(), [])
    }

    test('the first chunk creates the file and answers 201 with exactly {id, name}', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const response = await sendChunk(
        id,
        { name: 'a.txt', chunkIndex: 0, totalChunks: 1 },
        'hello',
        cookie
      )
      assert.equal(response.status, 201)
      assert.sameMembers(Object.keys(response.json), ['id', 'name'])
      assert.equal(response.json.name, 'a.txt')
      const file = await ShareFile.findOrFail(response.json.id)
      assert.isTrue(file.completed)
      assert.equal(file.size, 5)
      assert.equal(file.mimeType, 'text/plain')
      assert.equal(file.disk, disk.disk)
      assert.equal((await storedBytes(file.id)).toString(), 'hello')
      await assertOnlyFiles(assert, id, [file.id])
      assert.isNull(
        await UploadSession.findBy('fileId', file.id),
        'the session is gone once complete'
      )
    })

    test('accepts an empty file as one empty chunk', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const response = await sendChunk(
        id,
        { name: 'empty', chunkIndex: 0, totalChunks: 1 },
        Buffer.alloc(0),
        cookie
      )
      assert.equal(response.status, 201)
      const file = await ShareFile.findOrFail(response.json.id)
      assert.isTrue(file.completed)
      assert.equal(file.size, 0)
      assert.equal(file.mimeType, 'application/octet-stream')
    })

    test('writes chunks arriving out of order at their place', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK * 3 + 123)
      const upload = new ChunkedUpload(id, 'o.bin', content, CHUNK, cookie)
      await upload.send(0)
      for (const index of [3, 1, 2]) {
        const response = await upload.send(index)
        assert.equal(response.status, 201)
        assert.equal((await ShareFile.findOrFail(upload.id!)).completed, index === 2)
      }
      assert.isTrue((await storedBytes(upload.id!)).equals(content))
      await assertOnlyFiles(assert, id, [upload.id!])
    })

    test('accepts chunks of one file in parallel', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const more = disk.strategy === 'multipart' ? 4 : 12
      const content = randomBytes(CHUNK * more + 7)
      const upload = new ChunkedUpload(id, 'p.bin', content, CHUNK, cookie)
      await upload.send(0)
      const responses = await Promise.all(
        Array.from({ length: more }, (_, i) => upload.send(i + 1))
      )
      assert.deepEqual(
        responses.map((r) => r.status),
        Array(more).fill(201)
      )
      const file = await ShareFile.findOrFail(upload.id!)
      assert.isTrue(file.completed)
      assert.equal(file.size, content.length)
      assert.isTrue((await storedBytes(file.id)).equals(content))
      await assertOnlyFiles(assert, id, [file.id])
    })

    test('a retried chunk never duplicates data', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK * 2 + 10)
      const upload = new ChunkedUpload(id, 'r.bin', content, CHUNK, cookie)
      await upload.send(0)
      const fileId = upload.id!
      for (const index of [1, 1, 0]) {
        const response = await upload.send(index)
        assert.equal(response.status, 201)
      }
      const session = await UploadSession.findByOrFail('fileId', fileId)
      assert.lengthOf(await UploadChunk.query().where('uploadSessionId', session.id), 2)
      await upload.send(2)
      const retryAfterEnd = await upload.send(2)
      assert.equal(retryAfterEnd.status, 201)
      const file = await ShareFile.findOrFail(fileId)
      assert.equal(file.size, content.length)
      assert.isTrue((await storedBytes(fileId)).equals(content))
      await assertOnlyFiles(assert, id, [fileId])
    })

    test('answers an unexpected chunk with exactly the expected index, so the client can resume', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK * 4)
      const upload = new ChunkedUpload(id, 'u.bin', content, CHUNK, cookie)

      const withoutId = await upload.send(2)
      assert.equal(withoutId.status, 400)
      assert.deepEqual(withoutId.json, {
        message: 'Unexpected chunk received',
        error: 'unexpected_chunk_index',
        expectedChunkIndex: 0,
      })

      await upload.send(0)
      const fileId = upload.id!
      await upload.send(1)
      const probe = await upload.send(4, { body: upload.part(0) })
      assert.deepEqual(probe.json, {
        message: 'Unexpected chunk received',
        error: 'unexpected_chunk_index',
        expectedChunkIndex: 2,
      })
      const otherTotal = await upload.send(2, { totalChunks: 5 })
      assert.equal(otherTotal.status, 400)
      assert.equal(otherTotal.json.expectedChunkIndex, 2)

      for (let index = probe.json.expectedChunkIndex; index < 4; index++) {
        await upload.send(index)
      }
      assert.isTrue((await storedBytes(fileId)).equals(content))
      await assertOnlyFiles(assert, id, [fileId])
    })

    test('refuses a chunk of the wrong size (400) or above the chunk size (413), recording nothing', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const short = await sendChunk(
        id,
        { name: 's.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(CHUNK - 1),
        cookie
      )
      assert.equal(short.status, 400)
      assert.equal(short.json.message, `Every chunk but the last must be exactly ${CHUNK} bytes`)
      const large = await sendChunk(
        id,
        { name: 's.bin', chunkIndex: 0, totalChunks: 1 },
        randomBytes(CHUNK + 1),
        cookie
      )
      assert.equal(large.status, 413)
      assert.lengthOf(await ShareFile.query().where('shareId', id), 0)
    })

    test('enforces the chunk size while streaming a body sent without Content-Length', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const send = (size: number) => {
        const pieces: Buffer[] = []
        const piece = Math.max(100, Math.floor(CHUNK / 10))
        for (let sent = 0; sent < size; sent += piece)
          pieces.push(randomBytes(Math.min(piece, size - sent)))
        return postWithoutLength(
          `/api/shares/${id}/files?name=s.bin&chunkIndex=0&totalChunks=1`,
          cookie,
          pieces
        )
      }
      assert.equal(await send(CHUNK * 3), 413)
      assert.lengthOf(await ShareFile.query().where('shareId', id), 0)
      assert.equal(await send(CHUNK), 201)
      await assertOnlyFiles(
        assert,
        id,
        (await ShareFile.query().where('shareId', id)).map((file) => file.id)
      )
    })

    test('takes a last chunk sent without Content-Length, except where an S3 part needs it (411)', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      const content = randomBytes(CHUNK + 500)
      const upload = new ChunkedUpload(id, 'l.bin', content, CHUNK, cookie)
      await upload.send(0)
      const status = await postWithoutLength(
        `/api/shares/${id}/files?name=l.bin&chunkIndex=1&totalChunks=2&id=${upload.id}`,
        cookie,
        [content.subarray(CHUNK, CHUNK + 200), content.subarray(CHUNK + 200)]
      )
      if (disk.strategy === 'multipart') {
        assert.equal(status, 411)
        const retried = await upload.send(1)
        assert.equal(retried.status, 201)
      } else {
        assert.equal(status, 201)
      }
      assert.isTrue((await storedBytes(upload.id!)).equals(content))
      await assertOnlyFiles(assert, id, [upload.id!])
    })

    test('answers 413 with exactly the contract body when the share would exceed share.maxSize', async ({
      assert,
    }) => {
      await setConfig('share.maxSize', String(CHUNK * 3))
      const { id, cookie } = await openShare()
      await uploadFile(id, 'one.bin', randomBytes(CHUNK * 2), cookie, CHUNK)
      const tooMuch = await sendChunk(
        id,
        { name: 'two.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(CHUNK),
        cookie
      )
      assert.equal(tooMuch.status, 413)
      assert.deepEqual(tooMuch.json, { statusCode: 413, message: 'Max share size exceeded' })
      const lastTooBig = await sendChunk(
        id,
        { name: 'three.bin', chunkIndex: 0, totalChunks: 1 },
        randomBytes(CHUNK),
        cookie
      )
      assert.equal(lastTooBig.status, 201, 'exactly at the limit is fine')
      const over = await sendChunk(
        id,
        { name: 'four.bin', chunkIndex: 0, totalChunks: 1 },
        'x',
        cookie
      )
      assert.equal(over.status, 413)
      assert.lengthOf(await ShareFile.query().where('shareId', id), 2)
    })

    test('refuses uploads to a completed share (400) and to an unknown share (404, before validation)', async ({
      assert,
    }) => {
      const { id, cookie } = await openShare()
      await uploadFile(id, 'a.txt', 'a', cookie)
      await api('POST', `/api/shares/${id}/complete`, { cookie })
      const completed = await sendChunk(
        id,
        { name: 'b.txt', chunkIndex: 0, totalChunks: 1 },
        'b',
        cookie
      )
      assert.equal(completed.status, 400)
      assert.equal(completed.json.message, 'Share is already completed')
      const unknown = await api('POST', '/api/shares/not-found/files', { body: 'x', cookie })
      assert.equal(unknown.status, 404)
      assert.equal(unknown.json.message, 'Share not found')
    })

    test('refuses a file id of another share and a missing query', async ({ assert }) => {
      const a = await openShare()
      const b = await openShare()
      const first = await sendChunk(
        a.id,
        { name: 'a.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(CHUNK),
        a.cookie
      )
      const foreign = await sendChunk(
        b.id,
        { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id },
        'x',
        b.cookie
      )
      assert.equal(foreign.status, 404)
      assert.equal(foreign.json.message, 'File not found')
      const noQuery = await api('POST', `/api/shares/${a.id}/files`, {
        body: 'x',
        cookie: a.cookie,
      })
      assert.equal(noQuery.status, 400)
      assert.isArray(noQuery.json.message)
    })

    test('runs file:before_store: a refused file is not stored', async ({ assert }) => {
      const { id, cookie } = await openShare()
      const response = await sendChunk(
        id,
        { name: 'fixture-refused.txt', chunkIndex: 0, totalChunks: 1 },
        'x',
        cookie
      )
      assert.equal(response.status, 400)
      assert.equal(response.json.error, 'fixture_refused')
      assert.lengthOf(await ShareFile.query().where('shareId', id), 0)
    })
  },
  EVERY_DISK
)
