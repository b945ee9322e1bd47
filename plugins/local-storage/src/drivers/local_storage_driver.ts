/**
 * flydrive's filesystem driver with the random-access-write capability and
 * a `getStream` that rejects for a missing file (flydrive's emits the error
 * later, on the stream).
 */
import { constants } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { FSDriver } from 'flydrive/drivers/fs'
import type { FSDriverOptions } from 'flydrive/drivers/fs/types'
import type { RandomAccessWriteCapable } from '#extensions/storage/capabilities'

/** Options of the local driver (flydrive's FS driver options). */
export type LocalStorageDriverOptions = FSDriverOptions

/** Local filesystem driver; keys arrive normalised from the facade. */
export class LocalStorageDriver extends FSDriver implements RandomAccessWriteCapable {
  readonly #root: string

  /** @param options `location` (root folder) and `visibility` */
  constructor(options: LocalStorageDriverOptions) {
    super(options)
    const location = options.location
    this.#root = resolve(typeof location === 'string' ? location : fileURLToPath(location))
  }

  /**
   * Absolute path of `key` inside the root. A second line of defence after
   * the facade: throws when the key would leave the root.
   */
  #path(key: string): string {
    const path = resolve(this.#root, key)
    if (!path.startsWith(this.#root + sep)) {
      throw new Error(`Key "${key}" resolves outside the disk root`)
    }
    return path
  }

  /** Opens the file first, so a missing file rejects here (ENOENT). */
  async getStream(key: string): Promise<Readable> {
    const handle = await open(this.#path(key), 'r')
    return handle.createReadStream()
  }

  /**
   * Writes `contents` at byte `offset` of the file, creating it (and its
   * folders) when missing and never truncating it. A stream is piped through
   * a file handle, so only one chunk at a time is in memory.
   */
  async writeAt(key: string, offset: number, contents: Uint8Array | Readable): Promise<void> {
    const path = this.#path(key)
    await mkdir(dirname(path), { recursive: true })
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600)
    if (contents instanceof Uint8Array) {
      try {
        let written = 0
        while (written < contents.length) {
          const { bytesWritten } = await handle.write(contents, written, contents.length - written, offset + written)
          written += bytesWritten
        }
      } finally {
        await handle.close()
      }
      return
    }
    await pipeline(contents, handle.createWriteStream({ start: offset }))
  }
}
