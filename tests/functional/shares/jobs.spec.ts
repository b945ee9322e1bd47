import { randomBytes, randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import lock from '@adonisjs/lock/services/main'
import { storage } from '#extensions/storage/main'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import CleanupJobs from '#services/jobs/cleanup_jobs'
import JobRunner from '#services/jobs/job_runner'
import type { JobName } from '#services/jobs/schedule'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  EVERY_DISK,
  forEachDisk,
  newShareId,
  S3_MULTIPART,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

const dbDate = (date: DateTime) => date.toUTC().toFormat('yyyy-MM-dd HH:mm:ss')
const daysAgo = (days: number) => dbDate(DateTime.utc().minus({ days }))
const cleanupJobs = () => app.container.make(CleanupJobs)
const runJob = async (name: JobName) => (await app.container.make(JobRunner)).run(name)

forEachDisk(
  'Shares | cleanup jobs',
  (group, disk) => {
    group.each.teardown(() => cleanupShareTests())

    test('removes expired shares with their stored files and emits share:expired', async ({
      assert,
    }) => {
      const { cookie } = await shareUser()
      const expired = await createCompletedShare({
        cookie,
        files: { 'a.txt': 'a' },
        expiration: '1-minute',
      })
      const live = await createCompletedShare({
        cookie,
        files: { 'b.txt': 'b' },
        expiration: '1-day',
      })
      const never = await createCompletedShare({ cookie, files: { 'c.txt': 'c' } })
      const file = await ShareFile.findOrFail(expired.fileIds['a.txt'])
      await db
        .from('shares')
        .where('id', expired.id)
        .update({ expiration: daysAgo(1) })
      receivedEvents.length = 0

      assert.deepEqual(await (await cleanupJobs()).expiredShares(), [expired.id])
      assert.isNull(await Share.find(expired.id))
      assert.equal(file.disk, disk.disk)
      assert.isFalse(await storage.use(file.disk).exists(file.storageKey))
      assert.deepEqual(await disk.storedKeys(expired.id), [])
      assert.isNotNull(await Share.find(live.id))
      assert.isNotNull(await Share.find(never.id))
      assert.deepInclude(receivedEvents, {
        name: 'share:expired',
        payload: { shareId: expired.id },
      })
    })

    test('removes shares left unfinished for over a day, with their partial uploads', async ({
      assert,
    }) => {
      await setConfig('share.chunkSize', String(disk.chunkSize))
      const { cookie } = await shareUser()
      const stale = newShareId()
      await createShare(cookie, { id: stale })
      const chunk = await sendChunk(
        stale,
        { name: 'p.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(disk.chunkSize),
        cookie
      )
      const partial = await ShareFile.findOrFail(chunk.json.id)
      assert.equal(partial.disk, disk.disk)
      if (disk.strategy === 'multipart') assert.lengthOf(await disk.pendingUploads(), 1)
      else assert.isNotEmpty(await disk.storedKeys(stale))
      const fresh = newShareId()
      await createShare(cookie, { id: fresh })
      const reopened = await createCompletedShare({ cookie, files: { 'r.txt': 'r' } })
      await api('DELETE', `/api/shares/${reopened.id}/complete`, { cookie })
      await db
        .from('shares')
        .whereIn('id', [stale, reopened.id])
        .update({ created_at: daysAgo(2) })
      await db.from('upload_chunks').update({ created_at: daysAgo(2) })

      assert.deepEqual(await (await cleanupJobs()).unfinishedShares(), [stale])
      assert.isNull(await Share.find(stale))
      assert.isFalse(await storage.use(partial.disk).exists(partial.storageKey))
      assert.deepEqual(await disk.storedKeys(stale), [], 'no staged chunk left')
      assert.deepEqual(await disk.pendingUploads(), [], 'the multipart upload is aborted')
      assert.isNotNull(await Share.find(fresh), 'a recent unfinished share stays')
      assert.isNotNull(await Share.find(reopened.id), 'a share reopened for editing stays')
    })

    test('removes idle partial uploads and stored objects no file row knows', async ({
      assert,
    }) => {
      await setConfig('share.chunkSize', String(disk.chunkSize))
      const { cookie } = await shareUser()
      const share = await createCompletedShare({ cookie, files: { 'kept.txt': 'kept' } })
      await api('DELETE', `/api/shares/${share.id}/complete`, { cookie })
      const chunk = await sendChunk(
        share.id,
        { name: 'idle.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(disk.chunkSize),
        cookie
      )
      const busy = await sendChunk(
        share.id,
        { name: 'busy.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(disk.chunkSize),
        cookie
      )
      await db
        .from('files')
        .whereIn('id', [chunk.json.id, busy.json.id])
        .update({ created_at: daysAgo(2) })
      const idleSession = await UploadSession.findByOrFail('fileId', chunk.json.id)
      await db
        .from('upload_chunks')
        .where('upload_session_id', idleSession.id)
        .update({ created_at: daysAgo(2) })
      const strayKey = `shares/${share.id}/${randomUUID()}`
      const strayChunk = `shares/${share.id}/${randomUUID()}.chunks/0`
      await storage.use(disk.disk).put(strayKey, 'stray')
      await storage.use(disk.disk).put(strayChunk, 'stray chunk')

      const result = await (await cleanupJobs()).orphanedUploads()
      assert.deepEqual(result.files, [chunk.json.id])
      assert.includeMembers(result.objects, [
        `${disk.disk}:${strayKey}`,
        `${disk.disk}:${strayChunk}`,
      ])
      assert.isFalse(await storage.use(disk.disk).exists(strayKey))
      assert.isFalse(await storage.use(disk.disk).exists(strayChunk))
      assert.isNull(await ShareFile.find(chunk.json.id))
      assert.notInclude(
        (await disk.storedKeys(share.id)).join(' '),
        chunk.json.id,
        'the idle upload is gone'
      )
      const kept = await ShareFile.findOrFail(share.fileIds['kept.txt'])
      assert.isTrue(await storage.use(disk.disk).exists(kept.storageKey))
      assert.isNotNull(await ShareFile.find(busy.json.id), 'an upload with a recent chunk stays')
      if (disk.strategy === 'multipart') assert.lengthOf(await disk.pendingUploads(), 1)
      else assert.include((await disk.storedKeys(share.id)).join(' '), busy.json.id)
    })
  },
  EVERY_DISK
)

forEachDisk(
  'Shares | orphaned multipart uploads',
  (group, disk) => {
    group.each.teardown(() => cleanupShareTests())

    test('aborts day-old multipart uploads under shares/ that no upload session records', async ({
      assert,
    }) => {
      await setConfig('share.chunkSize', String(disk.chunkSize))
      const s3 = storage.use('s3')
      const { cookie } = await shareUser()
      const id = newShareId()
      await createShare(cookie, { id })
      const live = await sendChunk(
        id,
        { name: 'live.bin', chunkIndex: 0, totalChunks: 2 },
        randomBytes(disk.chunkSize),
        cookie
      )
      const liveUpload = (await UploadSession.findByOrFail('fileId', live.json.id))
        .multipartUploadId!
      const orphanKey = `shares/${id}/${randomUUID()}`
      const orphan = await s3.createMultipartUpload(orphanKey)
      await s3.uploadPart(orphanKey, orphan, 1, randomBytes(1000))
      const recentKey = `shares/${id}/${randomUUID()}`
      const recent = await s3.createMultipartUpload(recentKey)
      const foreignKey = `other-app/${randomUUID()}`
      const foreign = await s3.createMultipartUpload(foreignKey)
      const twoDaysAgo = DateTime.utc().minus({ days: 2 }).toJSDate()
      for (const uploadId of [liveUpload, orphan, foreign])
        await disk.s3!.setUploadInitiated(uploadId, twoDaysAgo)

      assert.deepEqual(await (await cleanupJobs()).abortOrphanedMultipartUploads(), [
        `s3:${orphanKey}:${orphan}`,
      ])
      assert.sameMembers(await disk.pendingUploads(), [liveUpload, recent, foreign])
      await disk.s3!.setUploadInitiated(recent, twoDaysAgo)
      const more = await (await cleanupJobs()).orphanedUploads()
      assert.deepEqual(more.files, [])
      assert.deepEqual(
        more.multipartUploads,
        [`s3:${recentKey}:${recent}`],
        'the orphan job runs the same rule'
      )
      assert.sameMembers(
        await disk.pendingUploads(),
        [liveUpload, foreign],
        'recorded and foreign uploads stay'
      )
      await s3.abortMultipartUpload(foreignKey, foreign)
    })
  },
  [S3_MULTIPART]
)

test.group('Shares | cleanup jobs', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('runs a job only when no other instance holds its lock', async ({ assert }) => {
    const held = lock.createLock('tern:jobs:expiredShares', '1m')
    assert.isTrue(await held.acquireImmediately())
    try {
      assert.isFalse(await runJob('expiredShares'))
    } finally {
      await held.release()
    }
    assert.isTrue(await runJob('expiredShares'))
  })
})
