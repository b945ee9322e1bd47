/**
 * A reverse share's `maxShareSize` holds while bytes are stored, not only in
 * the end: chunks sent at once never take the uploader's share past it (a
 * file's last chunk takes its room before it streams), and a last chunk sent
 * without Content-Length is cut off at it (413 "Max share size exceeded"),
 * with nothing past the cap in storage.
 */
import { request, type ClientRequest } from 'node:http'
import { test } from '@japa/runner'
import { storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import {
  api,
  baseUrl,
  cleanupShareTests,
  forEachDisk,
  sendChunk,
  setConfig,
  shareUser,
  type ShareDisk,
} from '#tests/helpers/shares'
import { createReverseShare, startReverseShareUpload } from '#tests/helpers/reverse_shares'

const CHUNK_SIZE = 1000
const TOO_LARGE = { statusCode: 413, message: 'Max share size exceeded' }

interface ChunkQuery {
  name: string
  chunkIndex: number
  totalChunks: number
  id: string
}

/**
 * Opens a chunk request whose body the caller writes (`outgoing`);
 * `answer` resolves to the status and body. Without `contentLength` the body
 * is a stream of unknown length (`Transfer-Encoding: chunked`).
 */
function openChunk(shareId: string, query: ChunkQuery, cookie: string, contentLength?: number) {
  const params = new URLSearchParams({
    ...query,
    chunkIndex: String(query.chunkIndex),
    totalChunks: String(query.totalChunks),
  })
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream', cookie }
  if (contentLength !== undefined) headers['content-length'] = String(contentLength)
  const outgoing: ClientRequest = request(`${baseUrl()}/api/shares/${shareId}/files?${params}`, {
    method: 'POST',
    headers,
  })
  const answer = new Promise<{ status: number; json: any }>((resolve, reject) => {
    outgoing.on('response', (response) => {
      const parts: Buffer[] = []
      response.on('data', (part: Buffer) => parts.push(part))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          json: JSON.parse(Buffer.concat(parts).toString() || 'null'),
        })
      )
    })
    // The server may answer (and close) before the whole body is sent: that is the refusal.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)
    )
  })
  return { outgoing, answer }
}

/** Sends a chunk as a stream of unknown length, in pieces of 100 bytes. */
function sendStreamedChunk(shareId: string, query: ChunkQuery, body: Buffer, cookie: string) {
  const { outgoing, answer } = openChunk(shareId, query, cookie)
  for (let offset = 0; offset < body.length; offset += 100)
    outgoing.write(body.subarray(offset, offset + 100))
  outgoing.end()
  return answer
}

/** Resolves once `condition()` holds (checked every 20 ms, for at most 10 s). */
async function waitFor(condition: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The bytes stored for the share on the disk (files and staged chunks). */
async function storedBytes(disk: ShareDisk, shareId: string): Promise<number> {
  let total = 0
  for (const key of await disk.storedKeys(shareId)) {
    if (!key.endsWith('/')) total += (await storage.use(disk.disk).getMetaData(key)).contentLength
  }
  return total
}

forEachDisk('Reverse shares | the max share size while storing', (group, disk) => {
  group.each.setup(() => setConfig('share.chunkSize', String(CHUNK_SIZE)))
  group.each.teardown(() => cleanupShareTests())

  test('first chunks sent at once never take the share past the cap', async ({ assert }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '2500' })
    const upload = await startReverseShareUpload(token)
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        sendChunk(
          upload.shareId,
          { name: `f${index}.bin`, chunkIndex: 0, totalChunks: 1 },
          Buffer.alloc(CHUNK_SIZE, index),
          upload.cookie
        )
      )
    )
    const statuses = answers.map((answer) => answer.status)
    assert.equal(statuses.filter((status) => status === 201).length, 2, JSON.stringify(statuses))
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
      assert.equal(answer.status, 413)
      assert.deepEqual(answer.json, TOO_LARGE)
    }
    const files = await ShareFile.query().where('shareId', upload.shareId)
    assert.lengthOf(files, 2)
    assert.isTrue(files.every((file) => file.completed && file.size === CHUNK_SIZE))
    assert.equal(await storedBytes(disk, upload.shareId), 2 * CHUNK_SIZE)
  })

  test('a last chunk without Content-Length is cut off at the cap, and nothing past it is stored', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '1500' })
    const upload = await startReverseShareUpload(token)
    const first = await sendChunk(
      upload.shareId,
      { name: 'a.bin', chunkIndex: 0, totalChunks: 2 },
      Buffer.alloc(CHUNK_SIZE, 1),
      upload.cookie
    )
    assert.equal(first.status, 201)
    const query = { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: first.json.id as string }

    const tooLong = await sendStreamedChunk(
      upload.shareId,
      query,
      Buffer.alloc(CHUNK_SIZE, 2),
      upload.cookie
    )
    assert.equal(tooLong.status, 413)
    assert.deepEqual(tooLong.json, TOO_LARGE)
    assert.isFalse((await ShareFile.findOrFail(query.id)).completed)
    assert.isAtMost(await storedBytes(disk, upload.shareId), 1500)

    // What fits is taken: the file completes at the cap.
    const fits = await sendStreamedChunk(upload.shareId, query, Buffer.alloc(500, 3), upload.cookie)
    assert.equal(fits.status, 201)
    const file = await ShareFile.findOrFail(query.id)
    assert.isTrue(file.completed)
    assert.equal(file.size, 1500)
    assert.equal(await storedBytes(disk, upload.shareId), 1500)
    const completed = await api('POST', `/api/shares/${upload.shareId}/complete`, {
      cookie: upload.cookie,
    })
    assert.equal(completed.status, 202)
  })
})

test.group('Reverse shares | the max share size while a last chunk streams', (group) => {
  group.each.setup(() => setConfig('share.chunkSize', String(CHUNK_SIZE)))
  group.each.teardown(() => cleanupShareTests())

  test("a file started while another's last chunk streams finds the room already taken", async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '2400' })
    const upload = await startReverseShareUpload(token)
    const first = await sendChunk(
      upload.shareId,
      { name: 'a.bin', chunkIndex: 0, totalChunks: 2 },
      Buffer.alloc(CHUNK_SIZE, 1),
      upload.cookie
    )
    assert.equal(first.status, 201)
    const file = await ShareFile.findOrFail(first.json.id)

    // The last chunk of a.bin (500 bytes: a.bin is 1500) is half sent, and being stored.
    const last = openChunk(
      upload.shareId,
      { name: 'a.bin', chunkIndex: 1, totalChunks: 2, id: file.id },
      upload.cookie,
      500
    )
    const disk = storage.use(file.disk)
    let other
    try {
      last.outgoing.write(Buffer.alloc(250, 2))
      await waitFor(
        async () => (await disk.getMetaData(file.storageKey)).contentLength > CHUNK_SIZE,
        'the last chunk to stream'
      )
      // 1000 more bytes would make 2500: refused before a byte of them is stored.
      other = await sendChunk(
        upload.shareId,
        { name: 'b.bin', chunkIndex: 0, totalChunks: 1 },
        Buffer.alloc(CHUNK_SIZE, 3),
        upload.cookie
      )
    } finally {
      // Also when a step failed: a request left half sent would keep the test server from closing.
      last.outgoing.end(Buffer.alloc(250, 2))
    }
    assert.equal((await last.answer).status, 201)
    assert.equal(other.status, 413)
    assert.deepEqual(other.json, TOO_LARGE)
    const files = await ShareFile.query().where('shareId', upload.shareId)
    assert.deepEqual(
      files.map((row) => [row.name, row.size, row.completed]),
      [['a.bin', 1500, true]]
    )
    const { objects } = await disk.listAll(`shares/${upload.shareId}`, { recursive: true })
    assert.deepEqual(
      [...objects].map((object) => ('key' in object ? object.key : object.prefix)),
      [file.storageKey]
    )
  })

  test('a first chunk sent again at once with its Idempotency-Key goes to its file, even with no room for a second', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const { token } = await createReverseShare(owner.cookie, { maxShareSize: '1500' })
    const upload = await startReverseShareUpload(token)
    const params = new URLSearchParams({ name: 'a.bin', chunkIndex: '0', totalChunks: '2' })
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `/api/shares/${upload.shareId}/files?${params}`, {
          body: Buffer.alloc(CHUNK_SIZE, 1),
          cookie: upload.cookie,
          headers: { 'idempotency-key': 'one-file' },
        })
      )
    )
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(10).fill(201)
    )
    assert.equal(new Set(answers.map((answer) => answer.json.id)).size, 1)
    assert.lengthOf(await ShareFile.query().where('shareId', upload.shareId), 1)
  })
})
