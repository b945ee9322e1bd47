/** Share fixtures for the user-deletion tests. */
import Share from '#models/share'
import ShareFile from '#models/share_file'
import { storage } from '#extensions/storage/main'

/** A share of `creatorId` with one stored file on the default disk. */
export async function shareWithStoredFile(options: {
  creatorId?: string | null
  reverseShareId?: string | null
}) {
  const id = `s${Math.random().toString(36).slice(2, 10)}`
  const share = await Share.create({
    id,
    creatorId: options.creatorId ?? null,
    reverseShareId: options.reverseShareId ?? null,
    completed: true,
  })
  const disk = await storage.resolveDefault()
  const file = await ShareFile.create({
    shareId: share.id,
    name: 'hello.txt',
    size: 5,
    disk,
    storageKey: `shares/${share.id}/file-1`,
    completed: true,
  })
  await storage.use(disk).put(file.storageKey, 'hello')
  return { share, file, disk }
}
