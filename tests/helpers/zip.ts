import yauzl from 'yauzl'

/** One entry of a zip: its bytes and compression method (0: stored, 8: deflated). */
export interface ZipEntry {
  bytes: Buffer
  method: number
}

/** Reads every entry of a zip: file name -> bytes and compression method. */
export function unzip(bytes: Buffer): Promise<Record<string, ZipEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error)
      const entries: Record<string, ZipEntry> = {}
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            entries[entry.fileName] = {
              bytes: Buffer.concat(chunks),
              method: entry.compressionMethod,
            }
            zip.readEntry()
          })
        })
      })
      zip.on('end', () => resolve(entries))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}
