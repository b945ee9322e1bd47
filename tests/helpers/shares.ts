/**
 * Helpers of the shares tests: raw HTTP with `fetch` against the test server
 * (chunk bodies are raw bytes), share set-up through the real API, and a
 * cleanup that removes every share, user and config value a test made.
 *
 * ```ts
 * const owner = await shareUser()
 * const share = await createCompletedShare({ user: owner, files: { 'a.txt': 'hello' } })
 * const res = await api('GET', `/api/shares/${share.id}`, { cookie: share.ownerCookie })
 * ```
 *
 * Run a group on every storage the contract must hold on (local disk, S3 over
 * s3rver with multipart parts or staged chunks) with `forEachDisk`:
 *
 * ```ts
 * forEachDisk('Shares | chunk upload protocol', (group, disk) => {
 *   group.each.setup(() => setConfig('share.chunkSize', String(disk.chunkSize)))
 *   group.each.teardown(() => cleanupShareTests())
 *   test('...', async () => { ... disk.disk ... await disk.storedKeys(shareId) ... })
 * }, EVERY_DISK)
 * ```
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import type { Group } from '@japa/runner/core'
import app from '@adonisjs/core/services/app'
import { storage } from '#extensions/storage/main'
import ConfigVariable from '#models/config_variable'
import ShareFile from '#models/share_file'
import Share from '#models/share'
import User from '#models/user'
import ShareService from '#services/shares/share_service'
import { accessCookieFor, createUser, type CreateUserOptions } from '#tests/helpers/auth'
import { startS3Server, type S3Server } from '#tests/helpers/s3_server'

/** Base URL of the test server. */
export function baseUrl(): string {
  return `http://${process.env.HOST}:${process.env.PORT}`
}

/** A response read whole: status, headers, body bytes and parsed JSON (when JSON). */
export interface RawResponse {
  status: number
  headers: Headers
  bytes: Buffer
  json: any
  /** `name=value` pairs of the Set-Cookie headers. */
  cookies: Record<string, string>
  /** The raw Set-Cookie lines. */
  setCookies: string[]
}

/** Options of `api`. */
export interface ApiOptions {
  json?: unknown
  body?: Buffer | string
  cookie?: string | null
  headers?: Record<string, string>
}

/** One HTTP request to the test server. */
export async function api(
  method: string,
  path: string,
  options: ApiOptions = {}
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers }
  let body: string | Uint8Array | undefined
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/octet-stream'
    body = typeof options.body === 'string' ? options.body : new Uint8Array(options.body)
  }
  if (options.cookie) headers.cookie = options.cookie
  const response = await fetch(baseUrl() + path, { method, headers, body, redirect: 'manual' })
  const bytes = Buffer.from(await response.arrayBuffer())
  let json: any = null
  if ((response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0) {
    json = JSON.parse(bytes.toString('utf8'))
  }
  const setCookies = response.headers.getSetCookie()
  const cookies: Record<string, string> = {}
  for (const line of setCookies) {
    const [pair] = line.split(';')
    const index = pair.indexOf('=')
    cookies[pair.slice(0, index)] = pair.slice(index + 1)
  }
  return { status: response.status, headers: response.headers, bytes, json, cookies, setCookies }
}

/** Joins cookie headers (`a=1; b=2`), skipping empty parts. */
export function joinCookies(...parts: (string | null | undefined)[]): string {
  return parts.filter(Boolean).join('; ')
}

const createdUsers: string[] = []
const changedConfig = new Set<string>()

/** A user (recorded for `cleanupShareTests`) with the Cookie header that signs them in. */
export async function shareUser(options: CreateUserOptions = {}) {
  const user = await createUser(options)
  createdUsers.push(user.id)
  return { user, cookie: await accessCookieFor(user) }
}

/** Stores a config value (reset to the default by `cleanupShareTests`). */
export async function setConfig(key: string, value: string | null): Promise<void> {
  changedConfig.add(key)
  await ConfigVariable.updateOrCreate({ key }, { value })
}

/** A fresh random share id. */
export function newShareId(prefix = 'test'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`
}

/**
 * Removes every share (stored files too), the users made by `shareUser` and
 * the config values set by `setConfig`. Use in `group.each.teardown`.
 */
export async function cleanupShareTests(): Promise<void> {
  for (const share of await Share.all())
    await (await app.container.make(ShareService)).delete(share)
  if (createdUsers.length) await User.query().whereIn('id', createdUsers.splice(0)).delete()
  if (changedConfig.size) {
    await ConfigVariable.query()
      .whereIn('key', [...changedConfig])
      .update({ value: null })
    changedConfig.clear()
  }
}

/** The keys of a share as `GET /api/shares/:id` and the owner routes answer it (Pingvin's share DTO). */
export const SHARE_KEYS = [
  'id',
  'name',
  'expiration',
  'description',
  'hasPassword',
  'creator',
  'files',
  'size',
]

/** Creates a share through the API; throws unless it answers 201. */
export async function createShare(cookie: string | null, body: Record<string, unknown>) {
  const response = await api('POST', '/api/shares', {
    cookie,
    json: { expiration: 'never', ...body },
  })
  if (response.status !== 201) throw new Error(`create share: ${response.status} ${response.bytes}`)
  return response
}

/** Sends one chunk. */
export function sendChunk(
  shareId: string,
  query: { name: string; chunkIndex: number; totalChunks: number; id?: string },
  body: Buffer | string,
  cookie: string | null
) {
  const params = new URLSearchParams({
    name: query.name,
    chunkIndex: String(query.chunkIndex),
    totalChunks: String(query.totalChunks),
    ...(query.id ? { id: query.id } : {}),
  })
  return api('POST', `/api/shares/${shareId}/files?${params}`, { body, cookie })
}

/** A new user's share still open for uploads (created through the API): its id and the user's cookie. */
export async function openShare(options: Record<string, unknown> = {}) {
  const { cookie } = await shareUser()
  const id = newShareId()
  await createShare(cookie, { id, ...options })
  return { id, cookie }
}

/** The bytes a file holds on its disk (up to its recorded size). */
export async function storedBytes(fileId: string): Promise<Buffer> {
  const file = await ShareFile.findOrFail(fileId)
  return Buffer.from(await storage.use(file.disk).getBytes(file.storageKey)).subarray(0, file.size)
}

/**
 * One file sent chunk by chunk, for tests of the chunk protocol itself:
 * `content` cut into pieces of `chunkSize` bytes. `send(i)` sends piece `i`
 * as chunk `i` (of `totalChunks`, by default as many as the content needs),
 * naming the file by the id the server gave it once a chunk answered 201,
 * like a client does. `body` and `totalChunks` override what is sent.
 */
export class ChunkedUpload {
  /** The file's id, once a chunk was accepted. */
  id: string | undefined
  readonly totalChunks: number

  constructor(
    readonly shareId: string,
    readonly name: string,
    readonly content: Buffer,
    readonly chunkSize: number,
    readonly cookie: string | null
  ) {
    this.totalChunks = Math.max(1, Math.ceil(content.length / chunkSize))
  }

  /** Piece `index` of the content. */
  part(index: number): Buffer {
    return this.content.subarray(index * this.chunkSize, (index + 1) * this.chunkSize)
  }

  async send(
    chunkIndex: number,
    options: { body?: Buffer | string; totalChunks?: number; cookie?: string | null } = {}
  ): Promise<RawResponse> {
    const response = await sendChunk(
      this.shareId,
      {
        name: this.name,
        chunkIndex,
        totalChunks: options.totalChunks ?? this.totalChunks,
        id: this.id,
      },
      options.body ?? this.part(chunkIndex),
      options.cookie === undefined ? this.cookie : options.cookie
    )
    if (response.status === 201) this.id ??= response.json.id
    return response
  }
}

/** Uploads a whole file in chunks of `chunkSize` bytes, in order; resolves to its id. */
export async function uploadFile(
  shareId: string,
  name: string,
  content: Buffer | string,
  cookie: string | null,
  chunkSize = 10_000_000
): Promise<string> {
  const bytes = Buffer.from(content)
  const totalChunks = Math.max(1, Math.ceil(bytes.length / chunkSize))
  let id: string | undefined
  for (let chunkIndex = 0; chunkIndex < totalChunks; chunkIndex++) {
    const chunk = bytes.subarray(chunkIndex * chunkSize, (chunkIndex + 1) * chunkSize)
    const response = await sendChunk(shareId, { name, chunkIndex, totalChunks, id }, chunk, cookie)
    if (response.status !== 201)
      throw new Error(`chunk ${chunkIndex}: ${response.status} ${response.bytes}`)
    id = response.json.id
  }
  return id!
}

/** Options of `createCompletedShare`. */
export interface CompletedShareOptions {
  /** Cookie of the creator (a user's access cookie or a visitor's ownership cookie). */
  cookie: string | null
  files: Record<string, Buffer | string>
  id?: string
  expiration?: string
  security?: { password?: string; maxViews?: number }
  name?: string
  description?: string
}

/** Creates a share, uploads `files` and completes it. Resolves to its id and the file ids by name. */
export async function createCompletedShare(options: CompletedShareOptions) {
  const id = options.id ?? newShareId()
  const created = await createShare(options.cookie, {
    id,
    expiration: options.expiration ?? 'never',
    security: options.security,
    name: options.name,
    description: options.description,
    recipients: [],
  })
  const cookie = joinCookies(options.cookie, ownerCookieOf(created))
  const fileIds: Record<string, string> = {}
  for (const [name, content] of Object.entries(options.files)) {
    fileIds[name] = await uploadFile(id, name, content, cookie)
  }
  const completed = await api('POST', `/api/shares/${id}/complete`, { cookie })
  if (completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.bytes}`)
  return { id, fileIds, cookie }
}

/**
 * Creates a share with `body` (throws unless 201), uploads one file `a.txt`
 * and asks to complete it, the creation and completion sent with `headers`;
 * resolves to its id and the completion's response.
 */
export async function createAndComplete(
  cookie: string | null,
  body: Record<string, unknown>,
  headers: Record<string, string> = {}
) {
  const id = newShareId()
  const created = await api('POST', '/api/shares', {
    cookie,
    headers,
    json: { id, expiration: 'never', ...body },
  })
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.bytes}`)
  const owner = joinCookies(cookie, ownerCookieOf(created))
  await uploadFile(id, 'a.txt', 'a', owner)
  return {
    id,
    completed: await api('POST', `/api/shares/${id}/complete`, { cookie: owner, headers }),
  }
}

/** Turns mail on through an SMTP server on 127.0.0.1:`port`, with `setConfig` (reset by `cleanupShareTests`). */
export async function setSmtpConfig(port: number): Promise<void> {
  await setConfig('smtp.enabled', 'true')
  await setConfig('smtp.host', '127.0.0.1')
  await setConfig('smtp.port', String(port))
  await setConfig('smtp.email', 'noreply@tern.test')
}

/** The `tern_share_owner=...` cookie a visitor's share creation set, or null. */
export function ownerCookieOf(response: RawResponse): string | null {
  const value = response.cookies.tern_share_owner
  return value ? `tern_share_owner=${value}` : null
}

/** Gets a share token (POST /token); resolves to the response and the `share_<id>_token=...` cookie. */
export async function shareToken(shareId: string, password?: string, cookie: string | null = null) {
  const response = await api('POST', `/api/shares/${shareId}/token`, {
    json: password === undefined ? {} : { password },
    cookie,
  })
  const value = response.cookies[`share_${shareId}_token`]
  return { response, cookie: value ? `share_${shareId}_token=${value}` : null }
}

/** A storage set-up the share tests run on (see `forEachDisk`). */
export interface DiskVariant {
  /** Shown in the group title. */
  label: string
  /** The disk new files go to: `local`, or `s3` (with `s3.enabled` on, pointing at a test s3rver). */
  disk: 'local' | 's3'
  /**
   * The `share.chunkSize` a group should use for files of several chunks:
   * 1000 bytes, or 5 MiB on `s3, multipart parts` (S3's smallest part, so
   * chunks map to parts; smaller chunks are staged as objects).
   */
  chunkSize: number
  /** How files of several chunks are stored with `chunkSize` (`chunkedUploadStrategy`). */
  strategy: 'randomAccess' | 'staged' | 'multipart'
}

/** The disk a group runs on, with the s3rver of S3 variants. */
export interface ShareDisk extends DiskVariant {
  /** The group's s3rver (S3 variants, while the group runs). */
  s3?: S3Server
  /** Every stored key of the share on this disk (files, staged chunks), sorted. */
  storedKeys(shareId: string): Promise<string[]>
  /** Ids of the multipart uploads neither completed nor aborted (always [] on the local disk). */
  pendingUploads(): Promise<string[]>
}

/** The local disk (random-access writes). */
export const LOCAL_DISK: DiskVariant = {
  label: 'local disk',
  disk: 'local',
  chunkSize: 1000,
  strategy: 'randomAccess',
}
/** S3 with chunks below the minimum part size: each chunk staged as an object, joined at the end. */
export const S3_STAGED: DiskVariant = {
  label: 's3, staged chunks',
  disk: 's3',
  chunkSize: 1000,
  strategy: 'staged',
}
/** S3 with chunks of 5 MiB: chunk i is part i + 1 of a multipart upload. */
export const S3_MULTIPART: DiskVariant = {
  label: 's3, multipart parts',
  disk: 's3',
  chunkSize: 5 * 1024 * 1024,
  strategy: 'multipart',
}
/** The local disk and S3 (small chunks): for groups where the chunk strategy does not matter. */
export const LOCAL_AND_S3: DiskVariant[] = [LOCAL_DISK, S3_STAGED]
/** Every storage path of uploads: local, S3 staged, S3 multipart. */
export const EVERY_DISK: DiskVariant[] = [LOCAL_DISK, S3_STAGED, S3_MULTIPART]

/** The `s3.*` settings that make `s3` the disk of new files, on `server` under the prefix `tern-test`. */
export async function useS3Disk(server: S3Server): Promise<void> {
  await setConfig('s3.enabled', 'true')
  await setConfig('s3.endpoint', server.endpoint)
  await setConfig('s3.bucketName', server.bucket)
  await setConfig('s3.bucketPath', 'tern-test')
  await setConfig('s3.key', server.accessKeyId)
  await setConfig('s3.secret', server.secretAccessKey)
  await setConfig('s3.forcePathStyle', 'true')
}

/**
 * Defines the group `<title> (<disk label>)` once per disk variant. On S3
 * variants an s3rver runs for the group and every test starts with the
 * `s3.*` settings pointing at it and `s3.enabled` on (reset by
 * `cleanupShareTests`, which the group's teardown must call). `define`
 * registers its own hooks after the disk's and its tests.
 */
export function forEachDisk(
  title: string,
  define: (group: Group, disk: ShareDisk) => void,
  variants: DiskVariant[] = LOCAL_AND_S3
): void {
  for (const variant of variants) {
    const disk: ShareDisk = {
      ...variant,
      async storedKeys(shareId) {
        const { objects } = await storage
          .use(variant.disk)
          .listAll(`shares/${shareId}`, { recursive: true })
        return [...objects]
          .map((object) => ('key' in object ? object.key : `${object.prefix}/`))
          .sort()
      },
      async pendingUploads() {
        return disk.s3 ? disk.s3.pendingUploads() : []
      },
    }
    test.group(`${title} (${variant.label})`, (group) => {
      if (variant.disk === 's3') {
        group.setup(async () => {
          disk.s3 = await startS3Server({ bucket: 'tern-shares' })
          return async () => {
            await disk.s3?.close()
            disk.s3 = undefined
          }
        })
        group.each.setup(() => useS3Disk(disk.s3!))
      }
      define(group, disk)
    })
  }
}
