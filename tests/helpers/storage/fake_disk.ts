/**
 * Test support: the in-memory disk with assertions that `fakeDisk()` puts in
 * place of a real one through `StorageManager.fake`.
 */
import { AssertionError } from 'node:assert'
import {
  normalizeStorageKey,
  StorageDisk,
  type StorageManager,
  storage,
} from '#extensions/storage/main'
import { MemoryStorageDriver } from '#tests/helpers/storage/memory_driver'

/** An in-memory disk with `assertExists`/`assertMissing`; supports random-access writes. */
export class FakeStorageDisk extends StorageDisk {
  declare driver: MemoryStorageDriver

  /** @param name the disk name it stands in for */
  constructor(name: string) {
    super(name, new MemoryStorageDriver())
  }

  /** Throws an `AssertionError` unless every key exists. */
  assertExists(keys: string | string[]): void {
    for (const key of [keys].flat()) {
      if (!this.driver.keys().includes(normalizeStorageKey(key))) {
        throw new AssertionError({
          message: `Expected "${key}" to exist on fake disk "${this.name}"`,
          expected: [key],
          actual: this.driver.keys(),
        })
      }
    }
  }

  /** Throws an `AssertionError` when any key exists. */
  assertMissing(keys: string | string[]): void {
    for (const key of [keys].flat()) {
      if (this.driver.keys().includes(normalizeStorageKey(key))) {
        throw new AssertionError({
          message: `Expected "${key}" to be missing on fake disk "${this.name}"`,
        })
      }
    }
  }

  /** Drops every object. */
  clear(): void {
    this.driver.clear()
  }
}

/**
 * Puts a `FakeStorageDisk` in place of disk `name` of `manager` (the
 * application's by default; the default disk when `name` is omitted) until
 * `manager.restore()`; the same fake on repeated calls. Throws
 * `E_STORAGE_DISK_UNKNOWN`.
 */
export function fakeDisk(name?: string, manager: StorageManager = storage): FakeStorageDisk {
  return manager.fake(name, (resolved) => new FakeStorageDisk(resolved))
}
