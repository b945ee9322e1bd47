/**
 * The chunked upload client of the share API (`POST /api/shares/:id/files`,
 * Pingvin's chunk protocol), free of React and of the browser: `fetch` is a
 * parameter, so the same code runs in the upload page and in Node tests
 * against the real server.
 *
 * - A file is cut in chunks of `share.chunkSize` bytes (an empty file is one
 *   empty chunk). Chunk 0 goes first, without `id`; the server answers the
 *   file id, which every later chunk carries.
 * - The later chunks go `concurrency` at a time (the server writes each at
 *   its own offset). The limit is shared by every file of one
 *   `ChunkUploader`, so several files never exceed it together.
 * - A chunk that fails for a transient reason (network error, 408, 429, 5xx)
 *   is sent again after an exponential back-off; other refusals (413, 403,
 *   404, ...) fail the file at once.
 * - A 400 `unexpected_chunk_index` means the server holds every chunk below
 *   `expectedChunkIndex`: those are marked done and the upload goes on from
 *   there.
 * - The progress of a file lives in an `UploadState`; calling `upload` again
 *   with the same state after a failure resumes it (same file id, only the
 *   missing chunks).
 *
 * No `~/` imports here: Node imports this file directly in the tests.
 */
import type { CreatedShare } from '#api/share'
import { apiUrl } from './api_url.js'

/** The `fetch` the client uses (the browser's, Node's, or a wrapper). */
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

/** What the client reads from a file: its name, size and byte ranges (a `File` or `Blob` with a name). */
export interface UploadSource {
  name: string
  size: number
  slice(start: number, end: number): Blob
}

/** The server's answer to a chunk: the file's id and (possibly renamed) name. */
export interface UploadedFile {
  id: string
  name: string
}

/** Progress of one file, kept between attempts so an interrupted upload resumes. */
export interface UploadState {
  /** The file id the server gave for chunk 0 (absent until then). */
  fileId?: string
  /**
   * Sent as `Idempotency-Key` with chunk 0: when its answer is lost, the
   * retry lands in the file the first attempt created instead of a new one.
   */
  uploadKey: string
  /** Indexes of the chunks the server holds. */
  done: Set<number>
  /** Bytes of the chunks in `done`. */
  uploadedBytes: number
  /** The server's answer once the last chunk is in. */
  result?: UploadedFile
}

/** A fresh, empty upload state. */
export function newUploadState(): UploadState {
  return { done: new Set(), uploadedBytes: 0, uploadKey: randomKey() }
}

/** 32 random hex digits (`crypto.getRandomValues` works on plain-HTTP pages too, unlike `randomUUID`). */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** A chunk about to be sent again. */
export interface RetryEvent {
  file: UploadSource
  chunkIndex: number
  /** 1 for the first retry. */
  attempt: number
  /** Milliseconds waited before the retry. */
  delay: number
  error: UploadError
}

/** Options of `ChunkUploader`. */
export interface ChunkUploaderOptions {
  /** The fetch to send requests with. */
  fetch: FetchFn
  /** `share.chunkSize` in bytes. */
  chunkSize: number
  /** Prefix of the API paths (`''` in the browser, `http://host:port` in Node). */
  baseUrl?: string
  /** Extra headers of every request (a `cookie` in Node). */
  headers?: Record<string, string>
  /** Chunk requests in flight at once, for all files together (default 4, what bench/transfer measures best). */
  concurrency?: number
  /** Retries of one chunk before its file fails (default 4). */
  retries?: number
  /** First back-off delay in ms, doubled at each retry (default 500). */
  retryDelay?: number
  /** Longest back-off delay in ms (default 10 000). */
  maxRetryDelay?: number
  /** Waits `ms` (tests may pass a faster one); default `setTimeout`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** Called before a chunk is sent again. */
  onRetry?: (event: RetryEvent) => void
}

/** Options of one `upload` call. */
export interface UploadCallOptions {
  /** Where the progress is kept (pass the same one to resume). */
  state?: UploadState
  /** Called after each chunk stored, with the bytes uploaded and the file size. */
  onProgress?: (uploadedBytes: number, totalBytes: number) => void
  /** Stops the upload (the promise rejects with an `UploadError` of kind `aborted`). */
  signal?: AbortSignal
}

/** Kinds of upload failures. */
export type UploadErrorKind = 'network' | 'http' | 'aborted'

/**
 * A failed request: `status` 0 for network errors, the contract's `error`
 * key and `message` from the body, and whether sending again may help.
 */
export class UploadError extends Error {
  readonly kind: UploadErrorKind
  readonly status: number
  /** The body's `error` (machine key or status text), when any. */
  readonly error: string | null
  /** The parsed body, when JSON. */
  readonly body: unknown

  constructor(
    kind: UploadErrorKind,
    status: number,
    message: string,
    error: string | null = null,
    body: unknown = null
  ) {
    super(message)
    this.name = 'UploadError'
    this.kind = kind
    this.status = status
    this.error = error
    this.body = body
  }

  /**
   * Network errors, 408, 429, 409 `file_assembling` (the server is still
   * joining the file's chunks) and 5xx but 507 (full disk): sending again may work.
   */
  get retryable(): boolean {
    if (this.kind === 'network') return true
    if (this.kind !== 'http') return false
    if (this.status === 409) return this.error === 'file_assembling'
    return this.status === 408 || this.status === 429 || (this.status >= 500 && this.status !== 507)
  }

  /** `expectedChunkIndex` of a 400 `unexpected_chunk_index`, else null. */
  get expectedChunkIndex(): number | null {
    if (this.status !== 400 || this.error !== 'unexpected_chunk_index') return null
    const value = (this.body as { expectedChunkIndex?: unknown } | null)?.expectedChunkIndex
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
  }
}

/** Number of chunks of a file of `size` bytes (at least 1). */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize))
}

/** The back-off before retry number `attempt` (1-based): `base * 2^(attempt-1)`, capped at `max`. */
export function backoffDelay(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1))
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function abortError() {
  return new UploadError('aborted', 0, 'Upload aborted')
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Sends one request; resolves to the parsed body of a 2xx answer, else throws `UploadError`. */
async function send(fetchFn: FetchFn, url: string, init: RequestInit): Promise<unknown> {
  let response: Response
  try {
    response = await fetchFn(url, init)
  } catch (cause) {
    if (init.signal?.aborted) throw abortError()
    throw new UploadError('network', 0, String((cause as Error)?.message ?? cause))
  }
  const body = await readJson(response).catch(() => null)
  if (response.ok) return body
  const record = (body && typeof body === 'object' ? body : {}) as {
    message?: unknown
    error?: unknown
  }
  const message = Array.isArray(record.message)
    ? record.message.map(String).join(' ')
    : String(record.message ?? response.statusText ?? response.status)
  throw new UploadError(
    'http',
    response.status,
    message,
    typeof record.error === 'string' ? record.error : null,
    body
  )
}

/** A counting semaphore: at most `limit` holders at once. */
class Limiter {
  #active = 0
  #queue: (() => void)[] = []

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#queue.push(resolve))
    this.#active++
    try {
      return await task()
    } finally {
      this.#active--
      this.#queue.shift()?.()
    }
  }
}

/**
 * Uploads files of one share in chunks (see the module comment).
 *
 * ```ts
 * const uploader = new ChunkUploader({ fetch, chunkSize: 10_000_000 })
 * const file = await uploader.upload(shareId, input.files[0], { onProgress: (done, total) => ... })
 * ```
 */
export class ChunkUploader {
  readonly #options: Required<Omit<ChunkUploaderOptions, 'onRetry' | 'headers'>> &
    Pick<ChunkUploaderOptions, 'onRetry' | 'headers'>
  readonly #limiter: Limiter

  constructor(options: ChunkUploaderOptions) {
    if (!(options.chunkSize > 0)) throw new Error('chunkSize must be positive')
    this.#options = {
      baseUrl: '',
      concurrency: 4,
      retries: 4,
      retryDelay: 500,
      maxRetryDelay: 10_000,
      sleep: defaultSleep,
      ...options,
    }
    this.#limiter = new Limiter(Math.max(1, this.#options.concurrency))
  }

  /**
   * Uploads `file` to share `shareId` and resolves to the server's
   * `{id, name}`. Rejects with `UploadError` when a chunk is refused or
   * keeps failing after the retries; the state passed in `options.state`
   * then lets a later call resume.
   */
  async upload(
    shareId: string,
    file: UploadSource,
    options: UploadCallOptions = {}
  ): Promise<UploadedFile> {
    const state = options.state ?? newUploadState()
    if (state.result) return state.result
    const total = chunkCount(file.size, this.#options.chunkSize)
    const report = () => options.onProgress?.(Math.min(state.uploadedBytes, file.size), file.size)

    // Chunk 0 alone: it creates the file and gives its id.
    if (!state.fileId) {
      state.done.clear()
      state.uploadedBytes = 0
      const answer = await this.#sendChunk(shareId, file, 0, total, state, options.signal)
      state.fileId = answer.id
      this.#markDone(state, file, 0)
      report()
      if (total === 1) return (state.result = answer)
    }

    // The other chunks, `concurrency` at a time (shared with other files).
    let last: UploadedFile | undefined
    let next = 0
    const pending = () => {
      while (next < total && state.done.has(next)) next++
      return next < total ? next++ : null
    }
    const worker = async () => {
      for (let index = pending(); index !== null; index = pending()) {
        if (state.done.has(index)) continue
        const answer = await this.#sendChunk(shareId, file, index, total, state, options.signal)
        this.#markDone(state, file, index)
        last = answer
        report()
      }
    }
    const workers = Math.max(1, Math.min(this.#options.concurrency, total))
    const results = await Promise.allSettled(Array.from({ length: workers }, worker))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
    // Chunks another attempt sent may be missing still (a skipped range): go again.
    for (let index = 0; index < total; index++) {
      if (!state.done.has(index)) return this.upload(shareId, file, { ...options, state })
    }
    state.result = last ?? { id: state.fileId!, name: file.name }
    return state.result
  }

  #markDone(state: UploadState, file: UploadSource, index: number) {
    if (state.done.has(index)) return
    state.done.add(index)
    const start = index * this.#options.chunkSize
    state.uploadedBytes += Math.max(0, Math.min(file.size, start + this.#options.chunkSize) - start)
  }

  /**
   * Sends chunk `index` with retries. A 400 `unexpected_chunk_index` marks
   * every chunk below `expectedChunkIndex` done; the chunk itself is sent
   * again when it is not among them.
   */
  async #sendChunk(
    shareId: string,
    file: UploadSource,
    index: number,
    total: number,
    state: UploadState,
    signal?: AbortSignal
  ): Promise<UploadedFile> {
    const { chunkSize, retries, retryDelay, maxRetryDelay } = this.#options
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortError()
      const query = new URLSearchParams({
        name: file.name,
        chunkIndex: String(index),
        totalChunks: String(total),
        ...(index > 0 && state.fileId ? { id: state.fileId } : {}),
      })
      const body = file.slice(index * chunkSize, Math.min(file.size, (index + 1) * chunkSize))
      try {
        const answer = await this.#limiter.run(() =>
          send(
            this.#options.fetch,
            `${this.#options.baseUrl}${apiUrl('shares.files.upload', { id: shareId })}?${query}`,
            {
              method: 'POST',
              credentials: 'same-origin',
              headers: {
                'Content-Type': 'application/octet-stream',
                'Accept': 'application/json',
                ...(index === 0 && !state.fileId ? { 'Idempotency-Key': state.uploadKey } : {}),
                ...this.#options.headers,
              },
              body,
              signal,
            }
          )
        )
        return answer as UploadedFile
      } catch (caught) {
        const error =
          caught instanceof UploadError ? caught : new UploadError('network', 0, String(caught))
        if (error.kind === 'aborted') throw error
        const expected = error.expectedChunkIndex
        if (expected !== null && index > 0 && state.fileId) {
          for (let done = 0; done < Math.min(expected, total); done++)
            this.#markDone(state, file, done)
          if (index < expected) return { id: state.fileId, name: file.name }
        } else if (!error.retryable) {
          throw error
        }
        if (attempt >= retries) throw error
        const delay = expected !== null ? 0 : backoffDelay(attempt + 1, retryDelay, maxRetryDelay)
        this.#options.onRetry?.({ file, chunkIndex: index, attempt: attempt + 1, delay, error })
        if (delay > 0) await this.#options.sleep(delay, signal)
      }
    }
  }
}

/** Body of `POST /api/shares`. */
export interface CreateShareInput {
  id: string
  name?: string | null
  description?: string | null
  /** `never` or `<n>-<unit>` (minute, hour, day, week, month, year). */
  expiration: string
  recipients: string[]
  security?: { password?: string | null; maxViews?: number | null }
}

/** Where and how the share calls are sent. */
export interface ShareApiOptions {
  fetch: FetchFn
  baseUrl?: string
  headers?: Record<string, string>
}

function jsonInit(options: ShareApiOptions, method: string, body?: unknown): RequestInit {
  return {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }
}

/** `GET /api/shares/isShareIdAvailable/:id`. */
export async function isShareIdAvailable(options: ShareApiOptions, id: string): Promise<boolean> {
  const body = (await send(
    options.fetch,
    `${options.baseUrl ?? ''}${apiUrl('shares.isIdAvailable', { id })}`,
    jsonInit(options, 'GET')
  )) as { isAvailable: boolean }
  return body.isAvailable
}

/** `POST /api/shares`: creates the (uncompleted) share. */
export async function createShare(
  options: ShareApiOptions,
  input: CreateShareInput
): Promise<CreatedShare> {
  return (await send(
    options.fetch,
    `${options.baseUrl ?? ''}${apiUrl('shares.store')}`,
    jsonInit(options, 'POST', input)
  )) as CreatedShare
}

/** `POST /api/shares/:id/complete`: completes the share once every file is in. */
export async function completeShare(options: ShareApiOptions, id: string): Promise<CreatedShare> {
  return (await send(
    options.fetch,
    `${options.baseUrl ?? ''}${apiUrl('shares.complete', { id })}`,
    jsonInit(options, 'POST')
  )) as CreatedShare
}

/** Letters, digits, `_` and `-`: the share id rule. */
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]+$/

/** A random share id of `length` characters from `[A-Za-z0-9]` (crypto random when available). */
export function randomShareId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const size = Math.min(50, Math.max(3, Math.floor(length) || 8))
  const bytes = new Uint8Array(size)
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes)
  else for (let i = 0; i < size; i++) bytes[i] = Math.floor(Math.random() * 256)
  let id = ''
  for (const byte of bytes) id += alphabet[byte % alphabet.length]
  return id
}
