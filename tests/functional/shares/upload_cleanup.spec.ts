/**
 * What uploads leave in storage after the race of a duplicate chunk with
 * the end of its file (issue 11 item 1): a chunk staged after the assembly
 * had removed the others belongs to no upload, and the orphan job removes
 * it, while the staged chunks of a file still uploading stay.
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import { stagedChunkKey, storage } from '#extensions/storage/main'
import ShareFile from '#models/share_file'
import { cleanupOrphanedUploads } from '#services/jobs/cleanup_jobs'
import {
  S3_STAGED,
  cleanupShareTests,
  createShare,
  forEachDisk,
  newShareId,
  sendChunk,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'

forEachDisk(
  'Shares | orphan job and staged chunks',
  (group, disk) => {
    group.each.setup(() => setConfig('share.chunkSize', String(disk.chunkSize)))
    group.each.teardown(() => cleanupShareTests())

    test('removes a chunk staged for a file already complete, keeps those of a file still uploading', async ({ assert }) => {
      const { cookie } = await shareUser()
      const shareId = newShareId()
      await createShare(cookie, { id: shareId })
      const content = randomBytes(disk.chunkSize + 10)
      const done = await sendChunk(shareId, { name: 'done.bin', chunkIndex: 0, totalChunks: 2 }, content.subarray(0, disk.chunkSize), cookie)
      await sendChunk(shareId, { name: 'done.bin', chunkIndex: 1, totalChunks: 2, id: done.json.id }, content.subarray(disk.chunkSize), cookie)
      const open = await sendChunk(shareId, { name: 'open.bin', chunkIndex: 0, totalChunks: 2 }, content.subarray(0, disk.chunkSize), cookie)
      const [complete, uploading] = await Promise.all([ShareFile.findOrFail(done.json.id), ShareFile.findOrFail(open.json.id)])
      assert.isTrue(complete.completed)
      // A duplicate of chunk 0 that was staged after the assembly.
      const stray = stagedChunkKey(complete.storageKey, 0)
      await storage.use('s3').put(stray, content.subarray(0, disk.chunkSize))

      const removed = await cleanupOrphanedUploads()
      assert.include(removed.objects, `s3:${stray}`)
      assert.deepEqual(await disk.storedKeys(shareId), [complete.storageKey, stagedChunkKey(uploading.storageKey, 0)].sort())
      assert.isTrue(Buffer.from(await storage.use('s3').getBytes(complete.storageKey)).equals(content))
    })
  },
  [S3_STAGED]
)
