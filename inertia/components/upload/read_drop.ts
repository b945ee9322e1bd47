/**
 * Reading what was dropped on the dropzone: plain files, and the files of
 * dropped folders where the browser exposes them
 * (`DataTransferItem.webkitGetAsEntry`, read recursively).
 */

interface EntryLike {
  isFile: boolean
  isDirectory: boolean
  name: string
}
interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void
}
interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void }
}

async function readEntry(entry: EntryLike, into: File[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File | null>((resolve) => (entry as FileEntryLike).file(resolve, () => resolve(null)))
    if (file) into.push(file)
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as DirectoryEntryLike).createReader()
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve) => reader.readEntries(resolve, () => resolve([])))
    if (batch.length === 0) break
    for (const child of batch) await readEntry(child, into)
  }
}

/** The files of a drop, folders expanded when the browser allows it. */
export async function filesFromDataTransfer(transfer: DataTransfer): Promise<File[]> {
  const items = Array.from(transfer.items ?? [])
  const entries = items
    .filter((item) => item.kind === 'file')
    .map((item) => (typeof item.webkitGetAsEntry === 'function' ? (item.webkitGetAsEntry() as EntryLike | null) : null))
  if (entries.length > 0 && entries.every(Boolean)) {
    const files: File[] = []
    for (const entry of entries) await readEntry(entry!, files)
    return files
  }
  return Array.from(transfer.files ?? [])
}
