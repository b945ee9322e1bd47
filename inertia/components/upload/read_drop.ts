/**
 * Reading what was dropped on the dropzone or chosen with the pickers: plain
 * files, and the files of folders where the browser exposes them
 * (`DataTransferItem.webkitGetAsEntry`, read recursively; `webkitRelativePath`
 * for the folder picker). A file from a folder is named by its path inside
 * the dropped folder (`photos/2024/a.jpg`), so the share keeps the structure:
 * "download all" recreates the folders in the zip, and two `a.jpg` of
 * different folders stay apart.
 */

interface EntryLike {
  isFile: boolean
  isDirectory: boolean
  name: string
  /** `/photos/2024/a.jpg` for an entry of a dropped folder `photos`. */
  fullPath?: string
}
interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void
}
interface DirectoryEntryLike extends EntryLike {
  createReader(): {
    readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void
  }
}

/**
 * `file` named by `path` (a relative path with `/`), or `file` itself when
 * the path adds nothing. The new `File` shares the bytes, nothing is copied.
 */
export function withPath(file: File, path: string | undefined): File {
  const name = (path ?? '').replace(/^\/+/, '')
  if (!name || name === file.name || !name.includes('/')) return file
  return new File([file], name, { type: file.type, lastModified: file.lastModified })
}

/** The files chosen with a file or folder input, named by their path inside a chosen folder. */
export function filesFromInput(list: FileList): File[] {
  return Array.from(list, (file) => withPath(file, file.webkitRelativePath))
}

async function readEntry(entry: EntryLike, into: File[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File | null>((resolve) =>
      (entry as FileEntryLike).file(resolve, () => resolve(null))
    )
    if (file) into.push(withPath(file, entry.fullPath))
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as DirectoryEntryLike).createReader()
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve) =>
      reader.readEntries(resolve, () => resolve([]))
    )
    if (batch.length === 0) break
    for (const child of batch) await readEntry(child, into)
  }
}

/** The files of a drop, folders expanded when the browser allows it. */
export async function filesFromDataTransfer(transfer: DataTransfer): Promise<File[]> {
  const items = Array.from(transfer.items ?? [])
  const entries = items
    .filter((item) => item.kind === 'file')
    .map((item) =>
      typeof item.webkitGetAsEntry === 'function'
        ? (item.webkitGetAsEntry() as EntryLike | null)
        : null
    )
  if (entries.length > 0 && entries.every(Boolean)) {
    const files: File[] = []
    for (const entry of entries) await readEntry(entry!, files)
    return files
  }
  return Array.from(transfer.files ?? [])
}
