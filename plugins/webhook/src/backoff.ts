/**
 * The retry policy: which outcomes are retried and how long to wait between
 * attempts (exponential back-off, capped).
 */

/** How long to wait between attempts. */
export interface RetryPolicy {
  /** Wait after the first failed attempt (ms); doubled after each further one. */
  baseDelayMs: number
  /** Upper bound of any wait (ms), `Retry-After` included. */
  maxDelayMs: number
}

/** Production defaults: 1 s, 2 s, 4 s ... at most 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 1000, maxDelayMs: 60_000 }

/**
 * The wait after failed attempt number `attempt` (1-based):
 * `baseDelayMs * 2^(attempt - 1)`, at least `retryAfterMs` when the receiver
 * asked for it, never above `maxDelayMs`.
 */
export function retryDelay(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs?: number | null
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1)
  return Math.min(Math.max(exponential, retryAfterMs ?? 0), policy.maxDelayMs)
}

/** Whether an HTTP answer with `status` is worth another attempt: 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599)
}

/**
 * A `Retry-After` header in milliseconds (seconds or an HTTP date), or null
 * when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/**
 * Reads a retry policy from the environment: `WEBHOOK_RETRY_BASE_DELAY_MS`
 * and `WEBHOOK_RETRY_MAX_DELAY_MS` (whole milliseconds). Unset or invalid
 * values fall back to `DEFAULT_RETRY_POLICY`.
 */
export function retryPolicyFromEnv(get: (name: string) => unknown): RetryPolicy {
  const read = (name: string, fallback: number) => {
    const raw = get(name)
    const value = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim() || Number.NaN)
    return Number.isSafeInteger(value) && value >= 0 ? value : fallback
  }
  const baseDelayMs = read('WEBHOOK_RETRY_BASE_DELAY_MS', DEFAULT_RETRY_POLICY.baseDelayMs)
  const maxDelayMs = read('WEBHOOK_RETRY_MAX_DELAY_MS', DEFAULT_RETRY_POLICY.maxDelayMs)
  return { baseDelayMs, maxDelayMs: Math.max(baseDelayMs, maxDelayMs) }
}
