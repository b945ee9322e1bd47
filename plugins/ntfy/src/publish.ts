/**
 * One publication to ntfy (https://docs.ntfy.sh/publish/): a plain HTTP
 * `POST <server>/<topic>` whose body is the message, with the title, tags,
 * priority and click URL as headers and an optional `Authorization: Bearer`
 * access token. Failures are thrown as `NotificationDeliveryError`: network
 * errors, timeouts, 429 and 5xx are retried by the outbox (after the
 * server's `Retry-After` when it sends one), any other answer is final.
 */
import { NotificationDeliveryError } from '#extensions/notifications/main'
import type { NtfySettings } from './settings.js'

/** What is published. */
export interface NtfyMessage {
  /** `Title` header (any text: non-ASCII is sent RFC 2047 encoded, which ntfy decodes). */
  title: string
  /** The message body (cut to {@link MAX_BODY_BYTES}: longer bodies would become attachments). */
  body: string
  /** `Tags` header: emoji short codes (`inbox_tray`) and plain words. */
  tags: string[]
  /** `Click` header: opened when the notification is tapped (http/https only). */
  click?: string | null
  /**
   * `X-Tern-Event-Id` header: the routed event's id, the same on every
   * attempt (ntfy ignores it; a proxy in front of it may dedupe on it).
   */
  eventId?: string
}

/** The request made for a message: the URL, headers and body. */
export interface NtfyRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/**
 * ntfy's default message size limit is 4096 bytes; a longer body is stored as
 * an attachment (or refused when attachments are off), so it is cut before.
 */
export const MAX_BODY_BYTES = 4000

/** A header value as HTTP allows it: ASCII as is, anything else RFC 2047 (`=?UTF-8?B?...?=`). */
export function headerText(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ').trim()
  if (/^[\x20-\x7e]*$/.test(line)) return line
  return `=?UTF-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`
}

/** `text` cut to at most `maxBytes` of UTF-8 (never inside a character), with an ellipsis when cut. */
export function truncateUtf8(text: string, maxBytes = MAX_BODY_BYTES): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text
  let cut = ''
  let size = 0
  for (const character of text) {
    const bytes = Buffer.byteLength(character, 'utf8')
    if (size + bytes > maxBytes - 3) break
    cut += character
    size += bytes
  }
  return `${cut}…`
}

/** The click URL when it is an absolute http(s) URL, else null (ntfy would refuse the message). */
export function clickUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** The request publishing `message` with `settings`. */
export function ntfyRequest(
  settings: NtfySettings,
  message: NtfyMessage,
  userAgent: string
): NtfyRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'User-Agent': userAgent,
    'Title': headerText(message.title),
    'Priority': String(settings.priority),
  }
  const tags = message.tags.map((tag) => tag.trim()).filter((tag) => /^[\w.:+-]+$/.test(tag))
  if (tags.length > 0) headers['Tags'] = tags.join(',')
  const click = clickUrl(message.click)
  if (click) headers['Click'] = click
  if (message.eventId && /^[\w.:-]{1,191}$/.test(message.eventId))
    headers['X-Tern-Event-Id'] = message.eventId
  if (settings.token) headers['Authorization'] = `Bearer ${settings.token}`
  return {
    url: `${settings.server}/${encodeURIComponent(settings.topic)}`,
    headers,
    body: truncateUtf8(message.body),
  }
}

/** Options of `publish`. */
export interface PublishOptions {
  userAgent: string
  timeoutMs: number
  /** Aborts the request (shutdown, lease lost): the attempt is then retried later. */
  signal?: AbortSignal
}

/**
 * POSTs `message` once. Resolves on a 2xx answer; otherwise throws
 * `NotificationDeliveryError` (retryable for network errors, timeouts, 429
 * and 5xx; final for other answers, e.g. 401/403 for a wrong token).
 * Redirects are not followed. The token never appears in an error.
 */
export async function publish(
  settings: NtfySettings,
  message: NtfyMessage,
  options: PublishOptions
): Promise<void> {
  const request = ntfyRequest(settings, message, options.userAgent)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    const why =
      timeout.aborted && !options.signal?.aborted
        ? `timed out after ${options.timeoutMs / 1000} s`
        : networkReason(error)
    throw new NotificationDeliveryError(`ntfy: ${why}`, { retryable: true, cause: error })
  }
  const text = await response.text().catch(() => '')
  if (response.ok) return
  const retryable = response.status === 429 || response.status >= 500
  throw new NotificationDeliveryError(`ntfy: HTTP ${response.status}${serverError(text)}`, {
    retryable,
    retryAfterMs: retryAfter(response.headers.get('retry-after')),
  })
}

/** ntfy answers errors as `{"code":40301,"http":403,"error":"forbidden"}`: keep the text. */
function serverError(body: string): string {
  let detail = body
  try {
    const parsed = JSON.parse(body) as { error?: unknown }
    if (typeof parsed.error === 'string') detail = parsed.error
  } catch {}
  detail = detail.replace(/\s+/g, ' ').trim().slice(0, 200)
  return detail ? `: ${detail}` : ''
}

/** A `Retry-After` header (seconds or an HTTP date) in ms, or null. */
function retryAfter(value: string | null): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now())
}

/** The text of a failed `fetch`: its message and the network error's code. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  const detail = cause?.code ?? cause?.message
  const message = error instanceof Error ? error.message : String(error)
  return detail ? `${message} (${detail})` : message
}
