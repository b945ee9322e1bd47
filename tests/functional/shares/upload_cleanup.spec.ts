/**
 * What uploads leave behind, on S3 and on a disk with
 * neither random-access writes nor multipart uploads (any driver):
 * - a chunk staged after the assembly had removed the others belongs to no
 *   upload, and the orphan job removes it, while the staged chunks of a file
 *   still uploading stay;
 * - an abandoned upload's staged chunks are removed with it;
 * - an assembly whose process died (state `assembling`, heartbeat silent)
 *   is finished by the stalled-upload job.
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { hooks, type FilterHandler } from '#extensions/hooks/main'
import { stagedChunkKey, storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import UploadFinalisation from '#services/files/upload_finalisation'
import app from '@adonisjs/core/services/app'
import { recordChunk } from '#services/files/upload_sessions'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import {
  S3_STAGED,
  api,
  cleanupShareTests,
  createShare,
  forEachDisk,
  newShareId,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'

forEachDisk(
  'Shares | orphan job and staged chunks',
  (group, disk) => {
    group.each.setup(() => setConfig('share.chunkSize', String(disk.chunkSize)))
    group.each.teardown(() => cleanupShareTests())

    test('removes a chunk staged for a file already complete, keeps those of a file still uploading', async ({
      assert,
    }) => {
      const { cookie } = await shareUser()
      const shareId = newShareId()
      await createShare(cookie, { id: shareId })
      const content = randomBytes(disk.chunkSize + 10)
      const done = await sendChunk(
        shareId,
        { name: 'done.bin', chunkIndex: 0, totalChunks: 2 },
        content.subarray(0, disk.chunkSize),
        cookie
      )
      await sendChunk(
        shareId,
        { name: 'done.bin', chunkIndex: 1, totalChunks: 2, id: done.json.id },
        content.subarray(disk.chunkSize),
        cookie
      )
      const open = await sendChunk(
        shareId,
        { name: 'open.bin', chunkIndex: 0, totalChunks: 2 },
        content.subarray(0, disk.chunkSize),
        cookie
      )
      const [complete, uploading] = await Promise.all([
        ShareFile.findOrFail(done.json.id),
        ShareFile.findOrFail(open.json.id),
      ])
      assert.isTrue(complete.completed)
      // A duplicate of chunk 0 that was staged after the assembly.
      const stray = stagedChunkKey(complete.storageKey, 0)
      await storage.use('s3').put(stray, content.subarray(0, disk.chunkSize))

      const removed = await (await app.container.make(CleanupJobs)).orphanedUploads()
      assert.include(removed.objects, `s3:${stray}`)
      assert.deepEqual(
        await disk.storedKeys(shareId),
        [complete.storageKey, stagedChunkKey(uploading.storageKey, 0)].sort()
      )
      assert.isTrue(
        Buffer.from(await storage.use('s3').getBytes(complete.storageKey)).equals(content)
      )
    })
  },
  [S3_STAGED]
)

/** A disk with neither random-access writes nor multipart uploads: chunks are staged as objects. */
class PlainMemoryDriver extends MemoryStorageDriver {
  constructor() {
    super()
    ;(this as any).writeAt = undefined
  }
}

test.group('Shares | uploads on a disk with no upload capability', (group) => {
  group.teardown(cleanCommittedData)
  const CHUNK = 100
  let route: FilterHandler<'file:before_store'> | undefined
  group.each.setup(async () => {
    await setConfig('share.chunkSize', String(CHUNK))
    if (!storage.has('plain-test'))
      storage.registerDriver('plain-test', () => new PlainMemoryDriver())
    route = (payload) => ({ ...payload, disk: 'plain-test' })
    hooks.addFilter('file:before_store', route)
  })
  group.each.teardown(async () => {
    if (route) hooks.removeFilter('file:before_store', route)
    await cleanupShareTests()
  })

  async function twoOfThree() {
    const { cookie } = await shareUser()
    const shareId = newShareId()
    await createShare(cookie, { id: shareId })
    const content = randomBytes(CHUNK * 2 + 9)
    const part = (i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK)
    const first = await sendChunk(
      shareId,
      { name: 'p.bin', chunkIndex: 0, totalChunks: 3 },
      part(0),
      cookie
    )
    await sendChunk(
      shareId,
      { name: 'p.bin', chunkIndex: 1, totalChunks: 3, id: first.json.id },
      part(1),
      cookie
    )
    const listing = async () =>
      [
        ...(await storage.use('plain-test').listAll(`shares/${shareId}`, { recursive: true }))
          .objects,
      ].map((o) => ('key' in o ? o.key : o.prefix))
    return {
      shareId,
      cookie,
      content,
      part,
      file: await ShareFile.findOrFail(first.json.id),
      listing,
    }
  }

  test('an abandoned upload loses its staged chunks to the cleanup job', async ({ assert }) => {
    const { file, listing } = await twoOfThree()
    assert.deepEqual(
      await listing(),
      [0, 1].map((i) => stagedChunkKey(file.storageKey, i))
    )
    await (await app.container.make(CleanupJobs)).orphanedUploads(DateTime.utc().plus({ days: 2 }))
    assert.deepEqual(await listing(), [])
    assert.isNull(await ShareFile.find(file.id))
  })

  test('an assembly whose process died is finished by the stalled-upload job', async ({
    assert,
  }) => {
    const { shareId, cookie, content, part, file, listing } = await twoOfThree()
    // What kill -9 right after claiming the assembly leaves: every chunk stored and recorded, state assembling.
    const session = await UploadSession.findByOrFail('fileId', file.id)
    await storage.use('plain-test').put(stagedChunkKey(file.storageKey, 2), part(2))
    await recordChunk(session, 2, part(2).length, null)
    const silentSince = DateTime.utc()
      .minus({ minutes: 1 })
      .toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .from('upload_sessions')
      .where('id', session.id)
      .update({ state: 'assembling', assembly_heartbeat_at: silentSince })
    const early = await api('POST', `/api/shares/${shareId}/complete`, { cookie })
    assert.equal(early.status, 400, 'not complete before it is assembled')

    assert.deepEqual(await (await app.container.make(UploadFinalisation)).resumeStalled(), [
      file.id,
    ])
    const finished = await ShareFile.findOrFail(file.id)
    assert.isTrue(finished.completed)
    assert.equal(finished.size, content.length)
    assert.isTrue(
      Buffer.from(await storage.use('plain-test').getBytes(file.storageKey)).equals(content)
    )
    assert.deepEqual(await listing(), [file.storageKey], 'the staged chunks are gone')
    assert.isNull(await UploadSession.find(session.id))
    assert.equal((await api('POST', `/api/shares/${shareId}/complete`, { cookie })).status, 202)
  })
})
