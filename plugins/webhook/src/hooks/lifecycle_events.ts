/**
 * Turns the lifecycle action events (`share:created`, `share:completed`,
 * `share:downloaded`, `share:expired`, `share:deleted`, `reverse_share:used`)
 * into webhooks. A listener resolves once the deliveries are stored in the
 * notification outbox (so the request that emitted the event answers only
 * after its webhooks are safe from a crash), never waiting for a receiver.
 */
import type { HookRunner } from '#extensions/hooks/main'
import { SUBSCRIBED_HOOKS } from '../events.js'
import type { WebhookDispatcher } from '../webhook_dispatcher.js'

/** Subscribes `dispatcher` to every lifecycle event of `hooks`; returns the unsubscribe function. */
export function subscribeLifecycleEvents(hooks: HookRunner, dispatcher: WebhookDispatcher): () => void {
  const unsubscribers = SUBSCRIBED_HOOKS.map((name) =>
    hooks.on(name, async (payload) => {
      await dispatcher.dispatch(name, { ...payload })
    })
  )
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe()
  }
}
