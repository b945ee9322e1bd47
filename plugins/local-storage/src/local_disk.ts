/**
 * The `local` disk's configuration helper.
 */
import { join } from 'node:path'
import type { StorageDriverFactory } from '#extensions/storage/types'
import { LocalStorageDriver } from './drivers/local_storage_driver.js'

/** The disk name this plugin registers. */
export const LOCAL_DISK_NAME = 'local'

/** A factory of the local driver rooted at `${dataDir}/uploads`. */
export function localDisk(dataDir: string): StorageDriverFactory {
  return () => new LocalStorageDriver({ location: join(dataDir, 'uploads'), visibility: 'private' })
}
