/**
 * Waits between delivery attempts of the outbox: exponential, capped, with
 * jitter so that deliveries that failed together (an SMTP outage) do not
 * all come back at the same instant.
 */

// How long to wait between attempts: part of the handler contract plugins see, defined once there.
import type { OutboxRetryPolicy } from '#extensions/outbox/main'
export type { OutboxRetryPolicy } from '#extensions/outbox/main'

/**
 * The wait after failed attempt number `attempt` (1-based): a random value
 * between half and all of `baseDelayMs * 2^(attempt - 1)`, at least
 * `retryAfterMs`, never above `maxDelayMs`. `random` is injectable for tests.
 */
export function outboxRetryDelay(
  attempt: number,
  policy: OutboxRetryPolicy,
  retryAfterMs?: number | null,
  random: () => number = Math.random
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.min(30, Math.max(0, attempt - 1))
  const jittered = exponential * (0.5 + random() * 0.5)
  return Math.round(Math.min(Math.max(jittered, retryAfterMs ?? 0), policy.maxDelayMs))
}
