/**
 * Coded errors of the storage extension point. Every error a facade throws
 * carries the driver's original error as `cause`; the message names the disk
 * and key but never the driver's internals (paths, buckets, SDK messages).
 */
import { createError } from '@adonisjs/core/exceptions'

/**
 * A local storage root is not the one this database's files are in (see
 * `shared_root.ts`); the message says why and what to do. Stops the start.
 */
export const E_STORAGE_ROOT_NOT_SHARED = createError<[explanation: string]>(
  '%s',
  'E_STORAGE_ROOT_NOT_SHARED',
  500
)

/** `use()`/`setDefault()`/`fake()` named a disk nobody registered (or no disk is registered at all). */
export const E_STORAGE_DISK_UNKNOWN = createError<[name: string]>(
  'Storage disk "%s" is not registered',
  'E_STORAGE_DISK_UNKNOWN',
  500
)

/** A second driver factory was registered under a name that is taken (plugins compose, never overwrite). */
export const E_STORAGE_DRIVER_EXISTS = createError<[name: string]>(
  'A storage driver named "%s" is already registered',
  'E_STORAGE_DRIVER_EXISTS',
  500
)

/** The key is empty, has forbidden characters or tries to leave the disk root (`..`). */
export const E_STORAGE_INVALID_KEY = createError<[key: string]>(
  'Invalid storage key "%s"',
  'E_STORAGE_INVALID_KEY',
  400
)

/** Reading an object that does not exist. */
export const E_STORAGE_NOT_FOUND = createError<[disk: string, key: string]>(
  'Storage disk "%s" has no object "%s"',
  'E_STORAGE_NOT_FOUND',
  404
)

/** The driver failed to read an existing object. */
export const E_STORAGE_READ_FAILED = createError<[disk: string, key: string]>(
  'Storage disk "%s" could not read "%s"',
  'E_STORAGE_READ_FAILED',
  500
)

/** The driver failed to write (put, stream, copy, move, chunk, part). */
export const E_STORAGE_WRITE_FAILED = createError<[disk: string, key: string]>(
  'Storage disk "%s" could not write "%s"',
  'E_STORAGE_WRITE_FAILED',
  500
)

/** The driver failed to delete. */
export const E_STORAGE_DELETE_FAILED = createError<[disk: string, key: string]>(
  'Storage disk "%s" could not delete "%s"',
  'E_STORAGE_DELETE_FAILED',
  500
)

/** Any other driver failure (metadata, URLs, listing). */
export const E_STORAGE_OPERATION_FAILED = createError<
  [disk: string, operation: string, key: string]
>('Storage disk "%s" failed to %s "%s"', 'E_STORAGE_OPERATION_FAILED', 500)

/** The disk's driver lacks an optional capability the caller asked for. */
export const E_STORAGE_UNSUPPORTED = createError<[disk: string, capability: string]>(
  'Storage disk "%s" does not support %s',
  'E_STORAGE_UNSUPPORTED',
  500
)
