/**
 * Types of the storage extension point. A driver is a flydrive
 * `DriverContract`, optionally with the capabilities of `capabilities.ts`.
 */
import type { DriverContract } from 'flydrive/types'

export type { DriverContract, ObjectMetaData, ObjectVisibility, WriteOptions } from 'flydrive/types'

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

/**
 * Picks the disk for NEW files at run time (e.g. `s3` while `s3.enabled` is
 * on). Returns a registered disk name, or undefined to let the next resolver
 * (or the static default) decide. Registered with
 * `StorageManager.addDefaultResolver`.
 */
export type DefaultDiskResolver = () => string | undefined | Promise<string | undefined>
