/**
 * The storage registry and manager. Plugins register named driver factories
 * (`local`, `s3`, ...); the application asks for a disk by name (the name
 * recorded with each stored file) or for the default disk.
 */
import { E_STORAGE_DISK_UNKNOWN, E_STORAGE_DRIVER_EXISTS } from './errors.js'
import { StorageDisk } from './storage_disk.js'
import type { DefaultDiskResolver, RegisterDriverOptions, StorageDriverFactory } from './types.js'

/** Registry of driver factories with cached `StorageDisk` facades and the fakes tests put in place. */
export class StorageManager {
  #factories = new Map<string, StorageDriverFactory>()
  #disks = new Map<string, StorageDisk>()
  #fakes = new Map<string, StorageDisk>()
  #default?: string
  #defaultResolvers: DefaultDiskResolver[] = []

  /**
   * Registers a driver factory under `name`. The first registered disk is the
   * default until one registers with `{ default: true }` or `setDefault` is
   * called. Throws `E_STORAGE_DRIVER_EXISTS` when the name is taken: a
   * plugin never replaces another one's disk.
   */
  registerDriver(
    name: string,
    factory: StorageDriverFactory,
    options: RegisterDriverOptions = {}
  ): this {
    if (this.#factories.has(name)) throw new E_STORAGE_DRIVER_EXISTS([name])
    this.#factories.set(name, factory)
    if (options.default || this.#default === undefined) this.#default = name
    return this
  }

  /** True when a driver is registered under `name`. */
  has(name: string): boolean {
    return this.#factories.has(name)
  }

  /** The registered disk names, in registration order. */
  names(): string[] {
    return [...this.#factories.keys()]
  }

  /** The default disk name, or undefined while no disk is registered. */
  get defaultName(): string | undefined {
    return this.#default
  }

  /** Makes `name` the default disk. Throws `E_STORAGE_DISK_UNKNOWN`. */
  setDefault(name: string): this {
    if (!this.#factories.has(name)) throw new E_STORAGE_DISK_UNKNOWN([name])
    this.#default = name
    return this
  }

  /**
   * Adds a run-time chooser of the default disk (see `resolveDefault`).
   * Resolvers are asked in registration order. Returns a function removing it.
   */
  addDefaultResolver(resolver: DefaultDiskResolver): () => void {
    this.#defaultResolvers.push(resolver)
    return () => {
      this.#defaultResolvers = this.#defaultResolvers.filter((candidate) => candidate !== resolver)
    }
  }

  /**
   * The disk NEW files go to: the first registered resolver answering a
   * name wins, else the static default (`defaultName`). Existing files are
   * read from the disk recorded with them, never from this. Throws
   * `E_STORAGE_DISK_UNKNOWN` when the answer names no registered disk (or no
   * disk is registered); a resolver's own error propagates.
   */
  async resolveDefault(): Promise<string> {
    for (const resolver of this.#defaultResolvers) {
      const name = await resolver()
      if (name !== undefined) return this.#resolveName(name)
    }
    return this.#resolveName()
  }

  #resolveName(name?: string): string {
    const resolved = name ?? this.#default
    if (resolved === undefined || !this.#factories.has(resolved)) {
      throw new E_STORAGE_DISK_UNKNOWN([resolved ?? '(default)'])
    }
    return resolved
  }

  /**
   * The facade of disk `name` (the default disk when omitted), built on first
   * use and cached; a fake when one is in place. Throws
   * `E_STORAGE_DISK_UNKNOWN`; errors of the factory propagate unchanged.
   */
  use(name?: string): StorageDisk {
    const resolved = this.#resolveName(name)
    const fake = this.#fakes.get(resolved)
    if (fake) return fake
    let disk = this.#disks.get(resolved)
    if (!disk) {
      disk = new StorageDisk(resolved, this.#factories.get(resolved)!())
      this.#disks.set(resolved, disk)
    }
    return disk
  }

  /** Drops the cached facade of `name` so the next `use` calls the factory again. */
  forget(name: string): void {
    this.#disks.delete(name)
  }

  /**
   * Puts a fake in place of disk `name` (default disk when omitted) until
   * `restore`: the one `create` builds for the resolved name, or the fake
   * already in place (same one on repeated calls). Tests bring the fake (an
   * in-memory disk, tests/helpers/storage/fake_disk.ts). Throws
   * `E_STORAGE_DISK_UNKNOWN`.
   */
  fake<T extends StorageDisk>(name: string | undefined, create: (name: string) => T): T {
    const resolved = this.#resolveName(name)
    let fake = this.#fakes.get(resolved) as T | undefined
    if (!fake) {
      fake = create(resolved)
      this.#fakes.set(resolved, fake)
    }
    return fake
  }

  /** Removes the fake of `name` (every fake when omitted). Never throws. */
  restore(name?: string): void {
    if (name === undefined) this.#fakes.clear()
    else this.#fakes.delete(name)
  }
}
