/**
 * Types of the storage extension point. A driver is a flydrive
 * `DriverContract`, optionally with the capabilities of `capabilities.ts`.
 */
import type { DriverContract } from 'flydrive/types'

export type { DriverContract, ObjectMetaData, WriteOptions } from 'flydrive/types'

/**
 * Builds the driver of a disk. Called once, on the first `use(name)`, and
 * again after `forget(name)` (e.g. when the disk's settings changed). It must
 * be cheap and synchronous: connect lazily, on the first operation.
 */
export type StorageDriverFactory = () => DriverContract

/** Options of `StorageManager.registerDriver`. */
export interface RegisterDriverOptions {
  /** Make this disk the default one (the last registration asking for it wins). */
  default?: boolean
}
