/**
 * Step 2 of a share's import (importer.ts): each file's bytes from Pingvin's
 * uploads folder to the target disk, through the storage facade.
 */
import { createReadStream } from 'node:fs'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { DateTime } from 'luxon'
import { storage } from '#extensions/storage/main'
import { storageKeyFor } from '#services/files/file_storage'
import type { ImportRun } from '#services/pingvin_import/import_run'
import type { PingvinRow } from '#services/pingvin_import/source'

/** A file of a share being imported: its row, its checked values and where its bytes are. */
export interface FileUnit {
  row: PingvinRow
  id: string
  name: string
  declaredSize: number
  createdAt: DateTime
  source: string
}

/** Step 2: each file's bytes to the disk; the byte counts of the files copied (by id). */
export async function copyFiles(
  run: ImportRun,
  shareId: string,
  units: FileUnit[],
  diskName: string
): Promise<Map<string, number>> {
  const disk = storage.use(diskName)
  const copied = new Map<string, number>()
  for (const unit of units) {
    const storageKey = storageKeyFor(shareId, unit.id)
    try {
      let bytes = 0
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length
          done(null, chunk)
        },
      })
      const reading = pipeline(createReadStream(unit.source), counter)
      await Promise.all([reading, disk.putStream(storageKey, counter)])
      await disk.sync(storageKey)
      copied.set(unit.id, bytes)
      run.report.tables.File.imported++
      if (bytes !== unit.declaredSize) {
        run.line(
          'warning',
          'File',
          unit.id,
          `size ${unit.declaredSize} in Pingvin's row, ${bytes} bytes copied: the copied size is kept`
        )
      }
    } catch (error) {
      run.report.tables.File.skipped++
      run.line(
        'skipped',
        'File',
        unit.id,
        `could not copy ${unit.source}: ${(error as Error).message}`
      )
    }
  }
  return copied
}
