/**
 * flydrive's filesystem driver with the random-access-write and range-read
 * capabilities and a `getStream` that rejects for a missing file
 * (flydrive's emits the error later, on the stream).
 */
import {
  close,
  constants,
  createReadStream,
  createWriteStream,
  fstat,
  open as openFd,
} from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { FSDriver } from 'flydrive/drivers/fs'
import type { FSDriverOptions } from 'flydrive/drivers/fs/types'
import type {
  ByteRangeRequest,
  RandomAccessWriteCapable,
  RangeReadCapable,
} from '#extensions/storage/capabilities'

/**
 * Read buffer of download streams: larger than Node's 64 KiB default, so a
 * big file goes out in fewer, larger writes (fewer syscalls and event-loop
 * turns) while memory per download stays small.
 */
const READ_BUFFER_SIZE = 1024 * 1024

/**
 * Write-side buffer of uploads (the file stream's high-water mark). With
 * Node's 16 KiB default every 64 KiB socket read waits for its disk write
 * before the next is taken, so one request's throughput is bound by the
 * write latency; 1 MiB lets the socket be read while writes are pending.
 * In `bench/transfer` this cut Tern's CPU per uploaded GiB by about a third
 * (fewer event-loop turns and stream pauses) at 1 MiB of memory per upload.
 */
const WRITE_BUFFER_SIZE = 1024 * 1024

/**
 * File descriptors, not `FileHandle`s, back the streams: fs streams over a
 * descriptor use the callback API, while a `FileHandle` stream awaits one
 * promise per read or write, measurably more CPU per gigabyte.
 */
const openDescriptor = promisify(openFd)
const statDescriptor = promisify(fstat)
const closeDescriptor = promisify(close)

/**
 * Runs `openFile` (an open with O_CREAT of `path`), making `path`'s folder
 * first only when the open says it is missing (ENOENT): every chunk after a
 * file's first finds its folder there, so it costs no mkdir (one
 * call through the thread pool less per chunk).
 */
async function inFolder<T>(path: string, openFile: () => Promise<T>): Promise<T> {
  try {
    return await openFile()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await mkdir(dirname(path), { recursive: true })
    return openFile()
  }
}

/** Options of the local driver (flydrive's FS driver options). */
export type LocalStorageDriverOptions = FSDriverOptions

/** Local filesystem driver; keys arrive normalised from the facade. */
export class LocalStorageDriver
  extends FSDriver
  implements RandomAccessWriteCapable, RangeReadCapable
{
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
    const fd = await openDescriptor(this.#path(key), 'r')
    return createReadStream('', { fd, highWaterMark: READ_BUFFER_SIZE })
  }

  /**
   * Bytes `start..end` (inclusive) of the file, read from `start` (the bytes
   * before it are never read). Rejects for a missing file (ENOENT) and for a
   * `start` at or past the end of the file.
   */
  async getStreamRange(key: string, { start, end }: ByteRangeRequest): Promise<Readable> {
    const fd = await openDescriptor(this.#path(key), 'r')
    try {
      const { size } = await statDescriptor(fd)
      if (start >= size) {
        throw Object.assign(
          new RangeError(`Range start ${start} is past the end of "${key}" (${size} bytes)`),
          {
            code: 'ERR_OUT_OF_RANGE',
          }
        )
      }
    } catch (error) {
      await closeDescriptor(fd)
      throw error
    }
    return createReadStream('', { fd, start, end, highWaterMark: READ_BUFFER_SIZE })
  }

  /**
   * Writes `contents` at byte `offset` of the file, creating it (and its
   * folders) when missing and never truncating it. A stream is piped through
   * a file handle, so only one chunk at a time is in memory.
   */
  async writeAt(key: string, offset: number, contents: Uint8Array | Readable): Promise<void> {
    const path = this.#path(key)
    if (contents instanceof Uint8Array) {
      const handle = await inFolder(path, () =>
        open(path, constants.O_RDWR | constants.O_CREAT, 0o600)
      )
      try {
        let written = 0
        while (written < contents.length) {
          const { bytesWritten } = await handle.write(
            contents,
            written,
            contents.length - written,
            offset + written
          )
          written += bytesWritten
        }
      } finally {
        await handle.close()
      }
      return
    }
    const fd = await inFolder(path, () =>
      openDescriptor(path, constants.O_RDWR | constants.O_CREAT, 0o600)
    )
    await pipeline(
      contents,
      createWriteStream('', { fd, start: offset, highWaterMark: WRITE_BUFFER_SIZE })
    )
  }

  /**
   * Makes the file `key` durable: its data (fdatasync) and its entry in its
   * folder (fsync of the folder), so a power loss after this resolves keeps
   * it. Called once when an upload completes, not per chunk: a flush per
   * 10 MB chunk cost 22-55 % of the upload time in bench/transfer, while one
   * flush at the end writes what the kernel has mostly written back by then.
   */
  async sync(key: string): Promise<void> {
    const path = this.#path(key)
    const file = await open(path, constants.O_RDONLY)
    try {
      await file.datasync()
    } finally {
      await file.close()
    }
    const folder = await open(dirname(path), constants.O_RDONLY)
    try {
      await folder.sync()
    } finally {
      await folder.close()
    }
  }
}
