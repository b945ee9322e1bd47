/**
 * One webhook request: the JSON body, the headers (signature included) and a
 * single attempt with a timeout, classified as delivered, retryable or final.
 */
import { signWebhook } from './signature.js'
import { isRetryableStatus, parseRetryAfter } from './backoff.js'

/** The JSON body of every webhook request. */
export interface WebhookBody {
  /** The webhook event name (`share.completed`). */
  event: string
  /** The delivery id (also `X-Tern-Delivery`), the same for every attempt of one delivery. */
  id: string
  /** When the event happened (ISO 8601, UTC). */
  occurredAt: string
  /** The event's data, or the notification's fields. */
  data: Record<string, unknown>
  /** Routed events: the texts the core rendered (instance language), for receivers that show them. */
  rendered?: { subject: string; text: string }
}

/** The raw JSON body of a delivery (sent unchanged on every attempt, so it is signed as sent). */
export function serializeWebhookBody(body: WebhookBody): string {
  const rendered = body.rendered
    ? { rendered: { subject: body.rendered.subject, text: body.rendered.text } }
    : {}
  return JSON.stringify({
    event: body.event,
    id: body.id,
    occurredAt: body.occurredAt,
    data: body.data,
    ...rendered,
  })
}

/** What the headers of one attempt are made of. */
export interface HeaderInput {
  event: string
  deliveryId: string
  body: string
  /** Empty: no `X-Tern-Signature`. */
  secret: string
  userAgent: string
  /** 1-based attempt number. */
  attempt: number
  /** Unix seconds (default now). */
  timestamp?: number
}

/** The request headers of one attempt (the timestamp and signature are fresh on every attempt). */
export function webhookHeaders(input: HeaderInput): Record<string, string> {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000))
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': input.userAgent,
    'X-Tern-Event': input.event,
    'X-Tern-Delivery': input.deliveryId,
    'X-Tern-Timestamp': timestamp,
    'X-Tern-Attempt': String(input.attempt),
  }
  if (input.secret) headers['X-Tern-Signature'] = signWebhook(input.secret, timestamp, input.body)
  return headers
}

/** The outcome of one attempt. */
export type AttemptOutcome =
  | { ok: true; status: number }
  | {
      ok: false
      /** Whether another attempt may succeed (network error, timeout, 5xx, 429). */
      retryable: boolean
      /** Why it failed, for the log (`HTTP 500 Internal Server Error: ...`, `timed out after 10 s`). */
      reason: string
      status?: number
      /** The receiver's `Retry-After`, in ms. */
      retryAfterMs?: number | null
    }

/** Options of `attemptDelivery`. */
export interface AttemptOptions {
  headers: Record<string, string>
  timeoutMs: number
  /** Aborts the attempt (shutdown); the outcome is then final. */
  signal?: AbortSignal
}

const SNIPPET_BYTES = 300

/** The first bytes of a response body as text (for the log), then the rest is discarded. */
async function bodySnippet(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } catch {
    // A body that fails to arrive does not change the outcome.
  } finally {
    await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8', 0, SNIPPET_BYTES).replace(/\s+/g, ' ').trim()
}

/** The log text of a failed `fetch`: the network error's code or message. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  const detail = cause?.code ?? cause?.message
  const message = error instanceof Error ? error.message : String(error)
  return detail ? `${message} (${detail})` : message
}

/**
 * POSTs `body` to `url` once. Redirects are not followed (a 3xx is a final
 * failure: configure the final URL). Never throws.
 */
export async function attemptDelivery(
  url: string,
  body: string,
  options: AttemptOptions
): Promise<AttemptOutcome> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: options.headers,
      body,
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    if (options.signal?.aborted) {
      return { ok: false, retryable: false, reason: 'cancelled: the application is shutting down' }
    }
    if (timeout.aborted) {
      return { ok: false, retryable: true, reason: `timed out after ${options.timeoutMs / 1000} s` }
    }
    return { ok: false, retryable: true, reason: networkReason(error) }
  }

  const snippet = await bodySnippet(response)
  if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
  const redirect = response.status >= 300 && response.status < 400
  const reason =
    `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` +
    (redirect
      ? ` (redirects are not followed; location: ${response.headers.get('location') ?? 'none'})`
      : '') +
    (snippet ? `: ${snippet}` : '')
  return {
    ok: false,
    retryable: isRetryableStatus(response.status),
    reason,
    status: response.status,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  }
}
