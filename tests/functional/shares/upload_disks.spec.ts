import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { test } from '@japa/runner'
import { hooks, type FilterHandler } from '#extensions/hooks/main'
import { storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import {
  api,
  cleanupShareTests,
  sendChunk,
  setConfig,
  shareToken,
  uploadFile,
  openShare,
  storedBytes,
} from '#tests/helpers/shares'
import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'

const CHUNK = 1000

/** An in-memory disk with multipart uploads only (no random-access writes), like S3, but parts of any size. */
class MultipartMemoryDriver extends MemoryStorageDriver {
  uploads = new Map<string, Map<number, Buffer>>()
  readonly multipartLimits = { minPartSize: 1, maxPartSize: 1_000_000, maxParts: 100 }

  constructor() {
    super()
    ;(this as any).writeAt = undefined
  }

  async createMultipartUpload(): Promise<string> {
    const id = randomUUID()
    this.uploads.set(id, new Map())
    return id
  }

  async uploadPart(
    _key: string,
    uploadId: string,
    partNumber: number,
    contents: Uint8Array | Readable
  ) {
    const parts = this.uploads.get(uploadId)
    if (!parts) throw new Error('unknown upload')
    const chunks: Buffer[] = []
    for await (const chunk of contents as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk))
    const bytes = Buffer.concat(chunks)
    parts.set(partNumber, bytes)
    return { partNumber, etag: createHash('md5').update(bytes).digest('hex') }
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[]
  ) {
    const stored = this.uploads.get(uploadId)!
    const ordered = parts.map((part) => {
      const bytes = stored.get(part.partNumber)!
      if (createHash('md5').update(bytes).digest('hex') !== part.etag)
        throw new Error('etag mismatch')
      return bytes
    })
    await this.put(key, Buffer.concat(ordered))
    this.uploads.delete(uploadId)
  }

  async abortMultipartUpload(_key: string, uploadId: string) {
    this.uploads.delete(uploadId)
  }
}

test.group('Shares | uploads on other disks', (group) => {
  let route: FilterHandler<'file:before_store'> | undefined
  group.each.setup(() => setConfig('share.chunkSize', String(CHUNK)))
  group.each.teardown(async () => {
    if (route) hooks.removeFilter('file:before_store', route)
    await cleanupShareTests()
  })

  test('a disk without random-access writes gets the chunks staged as objects, joined at the end', async ({
    assert,
  }) => {
    route = (payload) => ({ ...payload, disk: 'fixture' })
    hooks.addFilter('file:before_store', route)
    const { id, cookie } = await openShare()
    const content = randomBytes(CHUNK * 2 + 5)
    const fileId = await uploadFile(id, 'parts.bin', content, cookie, CHUNK)
    const file = await ShareFile.findOrFail(fileId)
    assert.equal(file.disk, 'fixture')
    assert.isTrue((await storedBytes(fileId)).equals(content))
    assert.deepEqual(
      [...(await storage.use('fixture').listAll(`shares/${id}`, { recursive: true })).objects].map(
        (o) => ('key' in o ? o.key : o.prefix)
      ),
      [file.storageKey],
      'the staged chunks are gone'
    )
    await api('POST', `/api/shares/${id}/complete`, { cookie })
    const token = await shareToken(id)
    const download = await api('GET', `/api/shares/${id}/files/${fileId}`, { cookie: token.cookie })
    assert.isTrue(download.bytes.equals(content))
  })

  test('a multipart disk gets each chunk as part index + 1, the upload id kept in the database', async ({
    assert,
  }) => {
    const driver = new MultipartMemoryDriver()
    if (!storage.has('multipart-test')) storage.registerDriver('multipart-test', () => driver)
    const disk = storage.use('multipart-test')
    const mp = disk.driver as MultipartMemoryDriver
    route = (payload) => ({ ...payload, disk: 'multipart-test' })
    hooks.addFilter('file:before_store', route)
    const { id, cookie } = await openShare()
    const content = randomBytes(CHUNK * 3 + 1)
    const part = (i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK)
    const first = await sendChunk(
      id,
      { name: 'mp.bin', chunkIndex: 0, totalChunks: 4 },
      part(0),
      cookie
    )
    const session = await UploadSession.findByOrFail('fileId', first.json.id)
    assert.isString(session.multipartUploadId)
    assert.deepEqual([...mp.uploads.get(session.multipartUploadId!)!.keys()], [1])
    await Promise.all(
      [3, 1, 2].map((i) =>
        sendChunk(
          id,
          { name: 'mp.bin', chunkIndex: i, totalChunks: 4, id: first.json.id },
          part(i),
          cookie
        )
      )
    )
    const file = await ShareFile.findOrFail(first.json.id)
    assert.isTrue(file.completed)
    assert.isTrue((await storedBytes(file.id)).equals(content))
    assert.isFalse(mp.uploads.has(session.multipartUploadId!))

    const open = await sendChunk(
      id,
      { name: 'left.bin', chunkIndex: 0, totalChunks: 2 },
      part(0),
      cookie
    )
    const pending = await UploadSession.findByOrFail('fileId', open.json.id)
    assert.isTrue(mp.uploads.has(pending.multipartUploadId!))
    await api('DELETE', `/api/shares/${id}/files/${open.json.id}`, { cookie })
    assert.isFalse(
      mp.uploads.has(pending.multipartUploadId!),
      'removing the file aborts its upload'
    )
  })

  test('answers 507 when the disk is full, recording nothing', async ({ assert }) => {
    const full = () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
    class FullDriver extends MemoryStorageDriver {
      async writeAt(): Promise<void> {
        throw full()
      }
      async putStream(): Promise<void> {
        throw full()
      }
    }
    if (!storage.has('full-test')) storage.registerDriver('full-test', () => new FullDriver())
    route = (payload) => ({ ...payload, disk: 'full-test' })
    hooks.addFilter('file:before_store', route)
    const { id, cookie } = await openShare()
    const response = await sendChunk(
      id,
      { name: 'big.bin', chunkIndex: 0, totalChunks: 1 },
      'x',
      cookie
    )
    assert.equal(response.status, 507)
    assert.equal(response.json.statusCode, 507)
    const multi = await sendChunk(
      id,
      { name: 'big.bin', chunkIndex: 0, totalChunks: 2 },
      randomBytes(CHUNK),
      cookie
    )
    assert.equal(multi.status, 507)
    assert.lengthOf(await ShareFile.query().where('shareId', id), 0)
  })
})
