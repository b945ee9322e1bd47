/**
 * Test support: an in-memory storage driver with the random-access-write
 * capability. It backs the fake disks (`fakeDisk`) and tests that register a
 * disk of their own; nothing survives the process.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { DriveDirectory, DriveFile } from 'flydrive'
import type { DriverContract, ObjectMetaData, ObjectVisibility, WriteOptions } from 'flydrive/types'
import type { RandomAccessWriteCapable } from '#extensions/storage/main'

interface StoredObject {
  bytes: Buffer
  contentType?: string
  lastModified: Date
}

/** Rejects like a filesystem does for a missing object. */
function missing(key: string): Error {
  return Object.assign(new Error(`ENOENT: no object "${key}"`), { code: 'ENOENT' })
}

/** Collects a stream or byte array into one buffer. */
async function toBuffer(contents: string | Uint8Array | Readable): Promise<Buffer> {
  if (typeof contents === 'string' || contents instanceof Uint8Array) return Buffer.from(contents)
  const chunks: Buffer[] = []
  for await (const chunk of contents) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** In-memory `DriverContract` (keys arrive normalised from the facade). */
export class MemoryStorageDriver implements DriverContract, RandomAccessWriteCapable {
  #objects = new Map<string, StoredObject>()

  /** Every stored key, sorted (handy in assertions). */
  keys(): string[] {
    return [...this.#objects.keys()].sort()
  }

  /** Drops every object. */
  clear(): void {
    this.#objects.clear()
  }

  #object(key: string): StoredObject {
    const object = this.#objects.get(key)
    if (!object) throw missing(key)
    return object
  }

  /** True when `key` holds an object; never throws. */
  async exists(key: string): Promise<boolean> {
    return this.#objects.has(key)
  }

  /** UTF-8 contents; rejects with ENOENT when missing. */
  async get(key: string): Promise<string> {
    return this.#object(key).bytes.toString('utf8')
  }

  /** A stream over a copy of the contents; rejects with ENOENT when missing. */
  async getStream(key: string): Promise<Readable> {
    return Readable.from([Buffer.from(this.#object(key).bytes)])
  }

  /** A copy of the contents; rejects with ENOENT when missing. */
  async getBytes(key: string): Promise<Uint8Array> {
    return new Uint8Array(this.#object(key).bytes)
  }

  /** Length, type, md5 etag and date; rejects with ENOENT when missing. */
  async getMetaData(key: string): Promise<ObjectMetaData> {
    const object = this.#object(key)
    return {
      contentLength: object.bytes.length,
      contentType: object.contentType,
      etag: createHash('md5').update(object.bytes).digest('hex'),
      lastModified: object.lastModified,
    }
  }

  /** Always private. */
  async getVisibility(_key: string): Promise<ObjectVisibility> {
    return 'private'
  }

  /** A `memory://` URL (not servable). */
  async getUrl(key: string): Promise<string> {
    return `memory://${key}`
  }

  /** A `memory://` URL (not servable). */
  async getSignedUrl(key: string): Promise<string> {
    return `memory://${key}?signed`
  }

  /** A `memory://` URL (not servable). */
  async getSignedUploadUrl(key: string): Promise<string> {
    return `memory://${key}?upload`
  }

  /** No-op: objects are always private. */
  async setVisibility(_key: string, _visibility: ObjectVisibility): Promise<void> {}

  /** Stores (replaces) the object. */
  async put(key: string, contents: string | Uint8Array, options?: WriteOptions): Promise<void> {
    this.#objects.set(key, {
      bytes: await toBuffer(contents),
      contentType: options?.contentType,
      lastModified: new Date(),
    })
  }

  /** Stores (replaces) the object from a stream. */
  async putStream(key: string, contents: Readable, options?: WriteOptions): Promise<void> {
    await this.put(key, await toBuffer(contents), options)
  }

  /** Copies; rejects with ENOENT when the source is missing. */
  async copy(source: string, destination: string): Promise<void> {
    const object = this.#object(source)
    this.#objects.set(destination, {
      ...object,
      bytes: Buffer.from(object.bytes),
      lastModified: new Date(),
    })
  }

  /** Moves; rejects with ENOENT when the source is missing. */
  async move(source: string, destination: string): Promise<void> {
    await this.copy(source, destination)
    this.#objects.delete(source)
  }

  /** Deletes; a missing key is fine. */
  async delete(key: string): Promise<void> {
    this.#objects.delete(key)
  }

  /** Deletes every key under `prefix` (`/` = everything). */
  async deleteAll(prefix: string): Promise<void> {
    for (const key of this.keys()) {
      if (prefix === '/' || key === prefix || key.startsWith(`${prefix}/`))
        this.#objects.delete(key)
    }
  }

  /** Lists files (and, when not recursive, first-level folders) under `prefix`. */
  async listAll(prefix: string, options?: { recursive?: boolean }) {
    const base = prefix === '/' ? '' : `${prefix}/`
    const objects: Array<DriveFile | DriveDirectory> = []
    const folders = new Set<string>()
    for (const key of this.keys().filter((k) => k.startsWith(base))) {
      const rest = key.slice(base.length)
      if (options?.recursive || !rest.includes('/')) {
        objects.push(new DriveFile(key, this))
      } else {
        folders.add(base + rest.split('/')[0])
      }
    }
    for (const folder of folders) objects.push(new DriveDirectory(folder))
    return { paginationToken: undefined, objects }
  }

  /** Buckets do not exist in memory. */
  bucket(_bucket: string): DriverContract {
    throw new Error('The memory driver has no buckets')
  }

  /** Writes the chunk at `offset`, growing (zero-filled) the object as needed. */
  async writeAt(key: string, offset: number, contents: Uint8Array | Readable): Promise<void> {
    const chunk = await toBuffer(contents)
    const current = this.#objects.get(key)?.bytes ?? Buffer.alloc(0)
    const size = Math.max(current.length, offset + chunk.length)
    const bytes = Buffer.alloc(size)
    current.copy(bytes)
    chunk.copy(bytes, offset)
    this.#objects.set(key, { bytes, lastModified: new Date() })
  }
}
