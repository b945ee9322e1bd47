import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import lock from '@adonisjs/lock/services/main'
import { storage } from '#extensions/storage/main'
import Share from '#models/share'
import ShareFile from '#models/share_file'
import {
  cleanupExpiredShares,
  cleanupOrphanedUploads,
  cleanupUnfinishedShares,
} from '#services/jobs/cleanup_jobs'
import { runJob } from '#services/jobs/job_runner'
import { receivedEvents } from '#tests/fixtures/plugins/fixture/src/state'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

const dbDate = (date: DateTime) => date.toUTC().toFormat('yyyy-MM-dd HH:mm:ss')
const daysAgo = (days: number) => dbDate(DateTime.utc().minus({ days }))

test.group('Shares | cleanup jobs', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('removes expired shares with their stored files and emits share:expired', async ({ assert }) => {
    const { cookie } = await shareUser()
    const expired = await createCompletedShare({ cookie, files: { 'a.txt': 'a' }, expiration: '1-minute' })
    const live = await createCompletedShare({ cookie, files: { 'b.txt': 'b' }, expiration: '1-day' })
    const never = await createCompletedShare({ cookie, files: { 'c.txt': 'c' } })
    const file = await ShareFile.findOrFail(expired.fileIds['a.txt'])
    await db.from('shares').where('id', expired.id).update({ expiration: daysAgo(1) })
    receivedEvents.length = 0

    assert.deepEqual(await cleanupExpiredShares(), [expired.id])
    assert.isNull(await Share.find(expired.id))
    assert.isFalse(await storage.use(file.disk).exists(file.storageKey))
    assert.isNotNull(await Share.find(live.id))
    assert.isNotNull(await Share.find(never.id))
    assert.deepInclude(receivedEvents, { name: 'share:expired', payload: { shareId: expired.id } })
  })

  test('removes shares left unfinished for over a day, with their partial uploads', async ({ assert }) => {
    await setConfig('share.chunkSize', '4')
    const { cookie } = await shareUser()
    const stale = newShareId()
    await createShare(cookie, { id: stale })
    const chunk = await sendChunk(stale, { name: 'p.bin', chunkIndex: 0, totalChunks: 2 }, 'abcd', cookie)
    const partial = await ShareFile.findOrFail(chunk.json.id)
    const fresh = newShareId()
    await createShare(cookie, { id: fresh })
    const reopened = await createCompletedShare({ cookie, files: { 'r.txt': 'r' } })
    await api('DELETE', `/api/shares/${reopened.id}/complete`, { cookie })
    await db.from('shares').whereIn('id', [stale, reopened.id]).update({ created_at: daysAgo(2) })
    await db.from('upload_chunks').update({ created_at: daysAgo(2) })

    assert.deepEqual(await cleanupUnfinishedShares(), [stale])
    assert.isNull(await Share.find(stale))
    assert.isFalse(await storage.use(partial.disk).exists(partial.storageKey))
    assert.isNotNull(await Share.find(fresh), 'a recent unfinished share stays')
    assert.isNotNull(await Share.find(reopened.id), 'a share reopened for editing stays')
  })

  test('removes idle partial uploads and stored objects no file row knows', async ({ assert }) => {
    await setConfig('share.chunkSize', '4')
    const { cookie } = await shareUser()
    const share = await createCompletedShare({ cookie, files: { 'kept.txt': 'kept' } })
    await api('DELETE', `/api/shares/${share.id}/complete`, { cookie })
    const chunk = await sendChunk(share.id, { name: 'idle.bin', chunkIndex: 0, totalChunks: 2 }, 'abcd', cookie)
    await db.from('files').where('id', chunk.json.id).update({ created_at: daysAgo(2) })
    await db.from('upload_chunks').update({ created_at: daysAgo(2) })
    const strayKey = `shares/${share.id}/${randomUUID()}`
    await storage.use('local').put(strayKey, 'stray')

    const result = await cleanupOrphanedUploads()
    assert.deepEqual(result.files, [chunk.json.id])
    assert.include(result.objects, `local:${strayKey}`)
    assert.isFalse(await storage.use('local').exists(strayKey))
    assert.isNull(await ShareFile.find(chunk.json.id))
    const kept = await ShareFile.findOrFail(share.fileIds['kept.txt'])
    assert.isTrue(await storage.use('local').exists(kept.storageKey))
  })

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
