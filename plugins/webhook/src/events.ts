/**
 * Webhook event names. A webhook's `event` (body and `X-Tern-Event` header)
 * is the catalogue event routed to the channel (`share.completed`,
 * `reverse_share.used`, `auth.new_device_sign_in`...); a notification the
 * core sends itself is named after its `type` with `:` replaced by a `.`.
 * The names in the `webhook.events` filter may be written either way.
 */
import { NOTIFICATION_EVENTS, type NotificationEventId } from '#extensions/notifications/main'

/** The webhook name of a catalogue event, hook or notification type (`share:created` -> `share.created`). */
export function webhookEventName(type: string): string {
  return type.trim().replace(':', '.')
}

/**
 * The events the plugin delivered by itself before routing existed (its
 * hook listeners). Installs that had webhooks configured get instance
 * routes for these (database/migrations/1560_route_webhook_lifecycle_events.ts).
 */
export const LIFECYCLE_EVENTS: readonly NotificationEventId[] = [
  'share.created',
  'share.completed',
  'share.downloaded',
  'share.expired',
  'share.deleted',
  'reverse_share.used',
]

/** Every event the channel can deliver: the whole catalogue. */
export const WEBHOOK_EVENTS: readonly NotificationEventId[] = NOTIFICATION_EVENTS

/**
 * Parses a `webhook.events` value: names separated by commas or white space,
 * in either spelling. Returns the webhook names; an empty list means every
 * event.
 */
export function parseEventFilter(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[\s,]+/)
        .map((name) => name.trim())
        .filter(Boolean)
        .map(webhookEventName)
    ),
  ]
}

/** Whether `event` (a webhook name) passes `filter` (empty = everything passes). */
export function eventAllowed(filter: readonly string[], event: string): boolean {
  return filter.length === 0 || filter.includes(webhookEventName(event))
}
