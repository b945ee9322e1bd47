/**
 * "Download all": the files of a share streamed as a zip, built on the fly
 * at `share.zipCompressionLevel`; no copy is stored. Sources are opened one
 * at a time, as the archive reaches them. archiver (and its zlib, crc and
 * tar dependencies, ~3 MiB of heap) is imported on the first zip, not at
 * boot: most processes never build one, and every worker would pay the memory.
 */
import { Readable } from 'node:stream'
import logger from '@adonisjs/core/services/logger'
import type ShareFile from '#models/share_file'
import app from '@adonisjs/core/services/app'
import FileStorage from '#services/files/file_storage'

/** A stream that opens its source only when first read. */
function lazySource(file: ShareFile): Readable {
  return Readable.from(
    (async function* () {
      if (file.size === 0) return
      const storage = await app.container.make(FileStorage)
      yield* await storage.openRange(file, 0, file.size - 1)
    })()
  )
}

/**
 * A zip entry name that cannot escape the extraction folder: `/` and `\`
 * separate folders, and empty, `.` and `..` segments are dropped
 * (`../../x` becomes `x`; a name with nothing left becomes `file`).
 */
export function safeEntryName(name: string): string {
  const segments = name
    .split(/[\\/]+/)
    .filter((part) => part !== '' && part !== '.' && part !== '..')
  return segments.join('/') || 'file'
}

/** Safe, unique entry names: a second `a.txt` becomes `a (1).txt`. */
export function uniqueEntryNames(names: string[]): string[] {
  const used = new Set<string>()
  return names.map(safeEntryName).map((name) => {
    let candidate = name
    for (let n = 1; used.has(candidate); n++) {
      const dot = name.lastIndexOf('.')
      candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`
    }
    used.add(candidate)
    return candidate
  })
}

/** A zip stream of `files` (in the given order) at compression `level` (0-9). */
export async function zipFiles(files: ShareFile[], level: number): Promise<Readable> {
  const { ZipArchive } = await import('archiver')
  const archive = new ZipArchive({ zlib: { level }, store: level === 0 })
  const names = uniqueEntryNames(files.map((file) => file.name))
  files.forEach((file, index) => archive.append(lazySource(file), { name: names[index] }))
  archive.finalize().catch((error) => {
    logger.warn({ err: error }, 'zip stream failed')
    archive.destroy(error)
  })
  return archive
}
