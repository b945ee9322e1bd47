/**
 * The storage extension point's public surface: the process-wide manager
 * (also bound as `tern.storage`) and everything a driver author needs.
 */
import { StorageManager } from './storage_manager.js'

/** The application's storage manager. */
export const storage = new StorageManager()

export { StorageManager } from './storage_manager.js'
export { StorageDisk, normalizeStorageKey } from './storage_disk.js'
export * from './capabilities.js'
export * from './chunked_upload.js'
export * as storageErrors from './errors.js'
export type * from './types.js'
