/**
 * Shares on the `gcs` disk through the HTTP API, against the Cloud Storage
 * emulator: chunks sent in parallel become part objects composed into the
 * file, which downloads whole, by Range and in a zip; deleting the share
 * deletes its objects, and the cleanup job removes abandoned parts.
 * Needs the plugin enabled (bin/test.ts lists gcs-storage in TERN_PLUGINS).
 */
import app from '@adonisjs/core/services/app'
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { Storage } from '@google-cloud/storage'
import { DateTime } from 'luxon'
import { pluginRegistry } from '#extensions/plugins/main'
import { storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import {
  api,
  cleanupShareTests,
  createShare,
  newShareId,
  sendChunk,
  setConfig,
  shareToken,
  shareUser,
  uploadFile,
} from '#tests/helpers/shares'
import { unzip } from '#tests/helpers/zip'
import { startGcsEmulator, type GcsEmulator } from '../emulator/gcs_emulator.js'

const CHUNK = 1000
const PREFIX = 'tern-test'

test.group('GCS storage | shares through the HTTP API', (group) => {
  let emulator: GcsEmulator
  let bucket = 0

  /** Every object name in the bucket under the disk prefix (multipart markers and parts included), sorted. */
  async function objectNames(): Promise<string[]> {
    const client = new Storage({
      projectId: emulator.projectId,
      credentials: JSON.parse(emulator.credentials),
    })
    const [files] = await client.bucket(`shares-${bucket}`).getFiles({ prefix: `${PREFIX}/` })
    return files.map((file) => file.name.slice(PREFIX.length + 1)).sort()
  }

  group.setup(async () => {
    if (!pluginRegistry.has('gcs-storage')) {
      throw new Error(
        'Enable the plugin for these tests: TERN_PLUGINS=...,gcs-storage (bin/test.ts does)'
      )
    }
    emulator = await startGcsEmulator()
    return () => emulator.close()
  })
  group.each.setup(async () => {
    bucket++
    await setConfig('share.chunkSize', String(CHUNK))
    await setConfig('gcs.enabled', 'true')
    await setConfig('gcs.bucketName', `shares-${bucket}`)
    await setConfig('gcs.bucketPath', PREFIX)
    await setConfig('gcs.projectId', emulator.projectId)
    await setConfig('gcs.credentials', emulator.credentials)
    await setConfig('gcs.endpoint', emulator.endpoint)
  })
  group.each.teardown(() => cleanupShareTests())

  test('a file sent in parallel chunks is composed on GCS, then served whole, by range and zipped', async ({
    assert,
  }) => {
    assert.equal(await storage.resolveDefault(), 'gcs')
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id })
    const content = randomBytes(40 * CHUNK + 321)
    const totalChunks = Math.ceil(content.length / CHUNK)
    const chunk = (i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK)

    const first = await sendChunk(
      id,
      { name: 'data.bin', chunkIndex: 0, totalChunks },
      chunk(0),
      cookie
    )
    assert.equal(first.status, 201)
    const fileId = first.json.id as string
    const file = await ShareFile.findOrFail(fileId)
    assert.equal(file.disk, 'gcs')
    const session = await UploadSession.findByOrFail('fileId', fileId)
    assert.match(session.multipartUploadId!, /^[0-9a-f]{32}$/)
    // Every chunk but the last at once, then the last one.
    const middle = await Promise.all(
      Array.from({ length: totalChunks - 2 }, (_, i) =>
        sendChunk(
          id,
          { name: 'data.bin', chunkIndex: i + 1, totalChunks, id: fileId },
          chunk(i + 1),
          cookie
        )
      )
    )
    assert.deepEqual([...new Set(middle.map((response) => response.status))], [201])
    assert.lengthOf(
      (await objectNames()).filter((name) =>
        name.startsWith(`.tern-multipart/parts/${session.multipartUploadId}/`)
      ),
      totalChunks - 1
    )
    const last = await sendChunk(
      id,
      { name: 'data.bin', chunkIndex: totalChunks - 1, totalChunks, id: fileId },
      chunk(totalChunks - 1),
      cookie
    )
    assert.equal(last.status, 201)
    const smallId = await uploadFile(id, 'small.txt', 'hello from gcs', cookie, CHUNK)
    assert.equal((await api('POST', `/api/shares/${id}/complete`, { cookie })).status, 202)
    assert.deepEqual(
      await objectNames(),
      [file.storageKey, (await ShareFile.findOrFail(smallId)).storageKey].sort()
    )

    const token = (await shareToken(id)).cookie
    const path = `/api/shares/${id}/files/${fileId}`
    const whole = await api('GET', path, { cookie: token })
    assert.equal(whole.status, 200)
    assert.isTrue(whole.bytes.equals(content))
    for (const [start, end] of [
      [CHUNK - 10, CHUNK + 9],
      [0, 0],
      [content.length - 321, content.length - 1],
    ]) {
      const partial = await api('GET', path, {
        cookie: token,
        headers: { range: `bytes=${start}-${end}` },
      })
      assert.equal(partial.status, 206)
      assert.equal(partial.headers.get('content-range'), `bytes ${start}-${end}/${content.length}`)
      assert.isTrue(partial.bytes.equals(content.subarray(start, end + 1)), `bytes ${start}-${end}`)
    }
    const zip = await api('GET', `/api/shares/${id}/files/zip`, { cookie: token })
    assert.equal(zip.status, 200)
    const entries = await unzip(zip.bytes)
    assert.sameMembers(Object.keys(entries), ['data.bin', 'small.txt'])
    assert.isTrue(entries['data.bin'].bytes.equals(content))
    assert.equal(entries['small.txt'].bytes.toString(), 'hello from gcs')

    assert.equal((await api('DELETE', `/api/shares/${id}`, { cookie })).status, 200)
    assert.deepEqual(await objectNames(), [])
  }).timeout(60_000)

  test('the cleanup job removes the parts of an abandoned upload and uploads nobody recorded', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id })
    const content = randomBytes(3 * CHUNK)
    const first = await sendChunk(
      id,
      { name: 'p.bin', chunkIndex: 0, totalChunks: 3 },
      content.subarray(0, CHUNK),
      cookie
    )
    const fileId = first.json.id as string
    await sendChunk(
      id,
      { name: 'p.bin', chunkIndex: 2, totalChunks: 3, id: fileId },
      content.subarray(2 * CHUNK),
      cookie
    )
    const session = await UploadSession.findByOrFail('fileId', fileId)
    const disk = storage.use('gcs')
    // An upload started by a process that died before recording it.
    const unrecorded = await disk.createMultipartUpload(`shares/${id}/lost-file`)
    await disk.uploadPart(`shares/${id}/lost-file`, unrecorded, 1, randomBytes(10))
    assert.sameMembers(
      (await disk.listMultipartUploads('shares')).uploads.map((upload) => upload.uploadId),
      [session.multipartUploadId, unrecorded]
    )
    assert.lengthOf(await objectNames(), 5, 'two markers and three parts')

    const removed = await (
      await app.container.make(CleanupJobs)
    ).orphanedUploads(DateTime.utc().plus({ days: 2 }))
    assert.deepEqual(removed.files, [fileId])
    assert.deepEqual(removed.multipartUploads, [`gcs:shares/${id}/lost-file:${unrecorded}`])
    assert.isNull(await ShareFile.find(fileId))
    assert.deepEqual((await disk.listMultipartUploads('/')).uploads, [])
    assert.deepEqual(await objectNames(), [])
  }).timeout(60_000)
})
