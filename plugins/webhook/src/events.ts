/**
 * Webhook event names. A webhook's `event` (body and `X-Tern-Event` header)
 * is the hook or notification type with its `:` replaced by a `.`:
 * `share:completed` is delivered as `share.completed`, `reverse_share:used`
 * as `reverse_share.used`. The names in the `webhook.events` filter may be
 * written either way.
 */
import { ACTION_EVENTS, type ActionEventName } from '#extensions/hooks/types'

/** The webhook name of a hook or notification type (`share:created` -> `share.created`). */
export function webhookEventName(type: string): string {
  return type.trim().replace(':', '.')
}

/** The webhook names of the lifecycle action events, in catalog order. */
export const LIFECYCLE_EVENTS: readonly string[] = ACTION_EVENTS.map(webhookEventName)

/** The action events the plugin turns into webhooks (every action event of the catalog). */
export const SUBSCRIBED_HOOKS: readonly ActionEventName[] = ACTION_EVENTS

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
