/**
 * Chunks that race the end of their file: the same first
 * chunk sent 20 times at once with one Idempotency-Key, and its last chunk 20
 * times at once. Every answer is 201 (or a 409 the client retries), never a
 * 5xx; exactly one file results, with the uploaded bytes, and nothing is
 * left in storage beside it.
 */
import { createHash, randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import {
  EVERY_DISK,
  api,
  cleanupShareTests,
  createShare,
  forEachDisk,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

const PARALLEL = 20

/**
 * Sends a chunk. A request that went out on a pooled keep-alive connection
 * the server closed at that moment (ECONNRESET, a race of any HTTP client)
 * is sent again, as clients do: the key or the file id makes that safe.
 */
async function chunk(
  shareId: string,
  totalChunks: number,
  index: number,
  body: Buffer,
  cookie: string,
  extra: { id?: string; key?: string }
) {
  const params = new URLSearchParams({
    name: 'race.bin',
    chunkIndex: String(index),
    totalChunks: String(totalChunks),
  })
  if (extra.id) params.set('id', extra.id)
  const send = () =>
    api('POST', `/api/shares/${shareId}/files?${params}`, {
      body,
      cookie,
      headers: extra.key ? { 'idempotency-key': extra.key } : {},
    })
  try {
    return await send()
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
    return send()
  }
}

function sha256(bytes: Buffer | Uint8Array) {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Statuses other than 201 and 409 (with their bodies). */
function unexpected(answers: { status: number; bytes: Buffer }[]) {
  return answers
    .filter((a) => a.status !== 201 && a.status !== 409)
    .map((a) => `${a.status} ${a.bytes}`)
}

forEachDisk(
  'Shares | chunks racing the end of their file',
  (group, disk) => {
    group.each.setup(() => setConfig('share.chunkSize', String(disk.chunkSize)))
    group.each.teardown(() => cleanupShareTests())

    for (const totalChunks of [1, 2]) {
      test(`${PARALLEL} parallel first chunks with one key, then ${PARALLEL} last chunks (${totalChunks} chunk(s)): one correct file`, async ({
        assert,
      }) => {
        const { cookie } = await shareUser()
        const shareId = newShareId()
        await createShare(cookie, { id: shareId })
        const content = randomBytes(totalChunks === 1 ? 700 : disk.chunkSize + 13)
        const first = content.subarray(0, disk.chunkSize)

        const firsts = await Promise.all(
          Array.from({ length: PARALLEL }, () =>
            chunk(shareId, totalChunks, 0, first, cookie, { key: 'same-key' })
          )
        )
        assert.deepEqual(unexpected(firsts), [], 'first chunks answer 201 or 409')
        const ids = new Set(firsts.filter((a) => a.status === 201).map((a) => a.json.id))
        assert.equal(ids.size, 1, 'every 201 names the same file')
        const [fileId] = ids

        if (totalChunks === 2) {
          const rest = content.subarray(disk.chunkSize)
          const lasts = await Promise.all(
            Array.from({ length: PARALLEL }, () =>
              chunk(shareId, 2, 1, rest, cookie, { id: fileId })
            )
          )
          assert.deepEqual(unexpected(lasts), [], 'last chunks answer 201 or 409')
          assert.isTrue(lasts.some((a) => a.status === 201))
        }

        const files = await ShareFile.query().where('shareId', shareId)
        assert.lengthOf(files, 1)
        assert.isTrue(files[0].completed)
        assert.equal(files[0].size, content.length)
        assert.isNull(await UploadSession.findBy('fileId', fileId))
        const stored = Buffer.from(await storage.use(files[0].disk).getBytes(files[0].storageKey))
        assert.equal(sha256(stored), sha256(content))
        assert.deepEqual(
          await disk.storedKeys(shareId),
          [files[0].storageKey],
          'nothing stored beside the file'
        )
        assert.deepEqual(await disk.pendingUploads(), [], 'no multipart upload left open')
        assert.equal((await api('POST', `/api/shares/${shareId}/complete`, { cookie })).status, 202)
      }).timeout(60_000)
    }
  },
  EVERY_DISK
)
