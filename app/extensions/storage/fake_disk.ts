/**
 * The disk `storage.fake(name)` puts in place of a real one: an in-memory
 * `StorageDisk` with assertions.
 */
import { AssertionError } from 'node:assert'
import { MemoryStorageDriver } from './memory_driver.js'
import { normalizeStorageKey, StorageDisk } from './storage_disk.js'

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
        throw new AssertionError({ message: `Expected "${key}" to be missing on fake disk "${this.name}"` })
      }
    }
  }

  /** Drops every object. */
  clear(): void {
    this.driver.clear()
  }
}
