/**
 * Helpers of the reverse-shares tests, on top of `#tests/helpers/shares`:
 * create a reverse share through the API, and upload a share through it the
 * way a browser does (`GET /api/reverseShares/:token` sets the
 * `reverse_share_token` cookie, then the share API is called with it).
 *
 * ```ts
 * const owner = await shareUser()
 * const { token } = await createReverseShare(owner.cookie, { maxUseCount: 1 })
 * const upload = await startReverseShareUpload(token)           // a visitor's share, not completed
 * await uploadFile(upload.shareId, 'a.txt', 'hello', upload.cookie)
 * await api('POST', `/api/shares/${upload.shareId}/complete`, { cookie: upload.cookie })
 * ```
 */
import type { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import {
  api,
  joinCookies,
  newShareId,
  ownerCookieOf,
  uploadFile,
  type RawResponse,
} from '#tests/helpers/shares'

/** `date` as the database stores a DATETIME (UTC, the dialect's format), for writing dates directly. */
export const dbDate = (date: DateTime) =>
  date.toUTC().toFormat(db.connection().dialect.dateTimeFormat)

/** The `reverse_share_token=<token>` Cookie header part. */
export function reverseShareCookie(token: string): string {
  return `reverse_share_token=${token}`
}

/** Creates a reverse share through the API (defaults: never expires, 1 MB, no use limit); throws unless 201. */
export async function createReverseShare(cookie: string, body: Record<string, unknown> = {}) {
  const response = await api('POST', '/api/reverseShares', {
    cookie,
    json: { shareExpiration: 'never', maxShareSize: '1000000', ...body },
  })
  if (response.status !== 201)
    throw new Error(`create reverse share: ${response.status} ${response.bytes}`)
  return { token: response.json.token as string, link: response.json.link as string, response }
}

/** The Set-Cookie line of `name` in a response, or undefined. */
export function setCookieLine(response: RawResponse, name: string): string | undefined {
  return response.setCookies.find((line) => line.startsWith(`${name}=`))
}

/** Options of `startReverseShareUpload`. */
export interface ReverseShareUploadOptions {
  /** The uploader's own cookie (a signed-in user's access cookie), if any. */
  cookie?: string | null
  id?: string
  body?: Record<string, unknown>
  /** Chunk size for uploads (must be `share.chunkSize` for files of several chunks). */
  chunkSize?: number
}

/**
 * Creates a share through the reverse share of `token`, as a browser would:
 * GET the token (which sets the cookie), then POST /api/shares with it.
 * Resolves to the share id, the cookie that owns the share (uploader's
 * cookie plus the visitor ownership cookie) and the creation response.
 * Throws unless 201.
 */
export async function startReverseShareUpload(
  token: string,
  options: ReverseShareUploadOptions = {}
) {
  const lookup = await api('GET', `/api/reverseShares/${token}`, { cookie: options.cookie })
  if (lookup.status !== 200)
    throw new Error(`reverse share lookup: ${lookup.status} ${lookup.bytes}`)
  const shareId = options.id ?? newShareId('rs')
  const created = await api('POST', '/api/shares', {
    cookie: joinCookies(options.cookie, reverseShareCookie(lookup.cookies.reverse_share_token)),
    json: { id: shareId, expiration: '1-day', recipients: [], ...options.body },
  })
  if (created.status !== 201) throw new Error(`create share: ${created.status} ${created.bytes}`)
  return { shareId, cookie: joinCookies(options.cookie, ownerCookieOf(created)), created }
}

/** `startReverseShareUpload`, then uploads `files`; the share is left uncompleted. */
export async function uploadThroughReverseShare(
  token: string,
  files: Record<string, string | Buffer>,
  options: ReverseShareUploadOptions = {}
) {
  const upload = await startReverseShareUpload(token, options)
  const fileIds: Record<string, string> = {}
  for (const [name, content] of Object.entries(files)) {
    fileIds[name] = await uploadFile(
      upload.shareId,
      name,
      content,
      upload.cookie,
      options.chunkSize
    )
  }
  return { ...upload, fileIds }
}

/** `uploadThroughReverseShare`, then completes the share; throws unless 202. */
export async function completedReverseShareUpload(
  token: string,
  files: Record<string, string | Buffer>,
  options: ReverseShareUploadOptions = {}
) {
  const upload = await uploadThroughReverseShare(token, files, options)
  const completed = await api('POST', `/api/shares/${upload.shareId}/complete`, {
    cookie: upload.cookie,
  })
  if (completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.bytes}`)
  return { ...upload, completed }
}
