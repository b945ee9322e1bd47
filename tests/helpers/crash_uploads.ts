/**
 * The client side of the upload fault suite (tests/functional/faults/upload_crash.spec.ts):
 * a file of three chunks driven to a fault point of a Tern child process
 * (`driveToFault`), then what a client does after the crash (`resume`).
 */
import { storage } from '#extensions/storage/main'
import type { FaultPoint } from '#services/files/fault_points'
import { sha256, type CrashTern } from '#tests/helpers/crash_tern'
import { setConfig, type DiskVariant } from '#tests/helpers/shares'

/** One upload of three chunks driven to a fault point. */
export interface Upload {
  /** The owner's cookie. */
  cookie: string
  phase: FaultPoint
  variant: DiskVariant
  shareId: string
  content: Buffer
  fileId?: string
  /** Left alone after the crash: the jobs must finish or remove it. */
  abandoned: boolean
}

/** Makes new files go to `variant`'s disk with its chunk size (S3 settings already in place). */
export async function useVariant(variant: DiskVariant) {
  await setConfig('share.chunkSize', String(variant.chunkSize))
  await setConfig('s3.enabled', variant.disk === 's3' ? 'true' : 'false')
}

/** Sends chunk `index` of the upload (of file `id`). */
export function chunk(tern: CrashTern, upload: Upload, index: number, id = upload.fileId) {
  const size = upload.variant.chunkSize
  const params = new URLSearchParams({
    name: 'data.bin',
    chunkIndex: String(index),
    totalChunks: '3',
    ...(id ? { id } : {}),
  })
  const body = upload.content.subarray(index * size, (index + 1) * size)
  return tern.request('POST', `/api/shares/${upload.shareId}/files?${params}`, {
    body,
    cookie: upload.cookie,
  })
}

/** The JSON of a 201/202 answer; throws with the status and body otherwise. */
export async function ok(
  response: Promise<{ status: number; json: any; bytes: Buffer }>,
  what: string
) {
  const answer = await response
  if (answer.status !== 201 && answer.status !== 202)
    throw new Error(`${what}: ${answer.status} ${answer.bytes}`)
  return answer.json
}

/** Sends the upload's requests up to its phase; the last one waits at the fault point until the kill. */
export async function driveToFault(tern: CrashTern, upload: Upload) {
  const hang = (request: Promise<unknown>) => void request.catch(() => {})
  const what = `${upload.phase} on ${upload.variant.label}`
  if (upload.phase === 'first-chunk') hang(chunk(tern, upload, 0))
  else {
    upload.fileId = (await ok(chunk(tern, upload, 0), what)).id
    if (upload.phase === 'chunk-stored') hang(chunk(tern, upload, 1))
    else {
      await ok(chunk(tern, upload, 1), what)
      if (upload.phase === 'completing') {
        await ok(chunk(tern, upload, 2), what)
        hang(
          tern.request('POST', `/api/shares/${upload.shareId}/complete`, { cookie: upload.cookie })
        )
      } else hang(chunk(tern, upload, 2))
    }
  }
  await tern.reached(upload.phase, upload.shareId)
}

/** What a client does after the crash, then completes the share. */
export async function resume(tern: CrashTern, upload: Upload) {
  const what = `resume ${upload.phase} on ${upload.variant.label}`
  if (upload.phase === 'first-chunk') {
    // The client never got the file id: it starts the file again (Pingvin clients send no key).
    const first = await ok(chunk(tern, upload, 0, undefined), what)
    upload.fileId = first.id
    for (const index of [1, 2]) await ok(chunk(tern, upload, index), what)
  } else if (upload.phase === 'chunk-stored') {
    for (const index of [1, 2]) await ok(chunk(tern, upload, index), what)
  } else if (upload.phase !== 'completing') {
    await ok(chunk(tern, upload, 2), what)
  }
  await ok(
    tern.request('POST', `/api/shares/${upload.shareId}/complete`, { cookie: upload.cookie }),
    what
  )
}

/** Downloads the file through the child; resolves to its sha256. */
export async function downloadedSha(tern: CrashTern, upload: Upload) {
  const token = await tern.request('POST', `/api/shares/${upload.shareId}/token`, { json: {} })
  const shareCookie = token.cookies.map((line) => line.split(';')[0]).join('; ')
  const file = await tern.request('GET', `/api/shares/${upload.shareId}/files/${upload.fileId}`, {
    cookie: shareCookie,
  })
  return `${file.status} ${sha256(file.bytes)}`
}

/** Every stored key under the upload's share folder on its disk. */
export async function storedKeys(upload: Upload) {
  const { objects } = await storage
    .use(upload.variant.disk)
    .listAll(`shares/${upload.shareId}`, { recursive: true })
  return [...objects].map((object) => ('key' in object ? object.key : object.prefix))
}
