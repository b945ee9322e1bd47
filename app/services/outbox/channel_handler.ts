/**
 * The outbox handler of a notification channel that has no handler of its
 * own: a delivery's payload is a `Notification`, sent through the channel.
 * Any obscured configuration value (SMTP password, signing keys) is kept out
 * of the stored error; an SMTP 5xx reply is final, anything else is retried.
 */
import logger from '@adonisjs/core/services/logger'
import { configRegistry } from '#extensions/config/registry'
import { configValues } from '#extensions/config/config_values'
import { NotificationDeliveryError } from '#extensions/notifications/delivery_error'
import type {
  Notification,
  NotificationManager,
  NotificationMessage,
} from '#extensions/notifications/main'
import type { OutboxHandler } from '#services/outbox/outbox_worker'

/** The payload of a delivery made through a notification channel. */
export interface ChannelPayload {
  notification: Notification
  /** Logged with a delivery that failed for good (`{ shareId, mail }`). */
  log?: Record<string, unknown>
}

/** Every obscured configuration value that is set (never to be stored or shown). */
export async function configuredSecrets(): Promise<string[]> {
  const keys = configRegistry
    .all()
    .filter((variable) => variable.obscured)
    .map((variable) => variable.key)
  if (keys.length === 0 || !configValues.isBound) return []
  const values = await configValues.getMany(keys)
  return Object.values(values)
    .map((value) => String(value ?? ''))
    .filter((value) => value.length > 0)
}

/** The innermost cause of `error` (the channel's own error inside the manager's wrapper). */
function rootCause(error: unknown): unknown {
  let current = error
  while (current instanceof Error && current.cause) current = current.cause
  return current
}

/**
 * The outbox handler of channel `name` for routed events
 * (NotificationRouter): a payload `{message}` goes to the channel's
 * `deliver` as it was rendered when the event happened; any other payload is
 * left to `fallback` (the channel's own handler, or `channelHandler`). A
 * `NotificationDeliveryError` keeps its verdict, anything else is retried.
 */
export function routedHandler(
  channels: NotificationManager,
  name: string,
  fallback: OutboxHandler
): OutboxHandler {
  return {
    async deliver(delivery, signal) {
      const payload = delivery.payload as { message?: NotificationMessage } | null
      if (!payload || typeof payload.message?.event !== 'string')
        return fallback.deliver(delivery, signal)
      try {
        await channels.use(name).deliver(payload.message)
      } catch (error) {
        if (error instanceof NotificationDeliveryError) throw error
        const cause = rootCause(error) as { message?: string }
        if (cause instanceof NotificationDeliveryError) throw cause
        throw new NotificationDeliveryError(cause?.message ?? String(cause), { cause: error })
      }
    },
    retry: fallback.retry,
    secrets: fallback.secrets ?? configuredSecrets,
    failed(delivery, reason) {
      const payload = delivery.payload as { message?: NotificationMessage } | null
      if (!payload?.message && fallback.failed) return fallback.failed(delivery, reason)
      logger.error(
        {
          delivery: delivery.id,
          channel: name,
          event: delivery.eventType,
          attempts: delivery.attempts,
          reason,
        },
        `Notification "${delivery.eventType}" through ${name} failed for good: ${reason}`
      )
    },
  }
}

/** See the module comment. */
export function channelHandler(channels: NotificationManager, name: string): OutboxHandler {
  return {
    async deliver(delivery) {
      const payload = delivery.payload as ChannelPayload
      try {
        await channels.use(name).send(payload.notification)
      } catch (error) {
        const cause = rootCause(error) as { responseCode?: number; message?: string }
        const permanent = typeof cause?.responseCode === 'number' && cause.responseCode >= 500
        throw new NotificationDeliveryError(cause?.message ?? String(cause), {
          retryable: !permanent,
          cause: error,
        })
      }
    },
    secrets: configuredSecrets,
    failed(delivery, reason) {
      const what = name === 'email' ? 'mail' : `"${name}" notification`
      logger.error(
        {
          ...(delivery.payload as ChannelPayload | null)?.log,
          delivery: delivery.id,
          attempts: delivery.attempts,
          reason,
        },
        `Sending ${what} in the background failed: %s`,
        reason
      )
    },
  }
}
