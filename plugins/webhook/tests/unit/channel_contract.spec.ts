/**
 * The webhook channel runs the notification-channel contract against a real
 * HTTP receiver on loopback: `deliver` stores one outbox row per URL on a
 * lane of its own, delivered by the outbox worker. The failing channel has
 * no usable URL (a final error: an unreachable receiver is retried per URL
 * by the outbox, after `deliver` succeeded). Idempotency: a repeated event
 * is stored once per URL, so the receiver gets it once.
 */
import { notificationChannelContract } from '#tests/contracts/notification_channel_contract'
import { startWebhookReceiver } from '#tests/helpers/webhook_receiver'
import { WebhookChannel } from '../../src/channels/webhook_channel.js'
import type { WebhookSettings } from '../../src/settings.js'
import { WebhookDispatcher } from '../../src/webhook_dispatcher.js'

const silent = { info: () => {}, warn: () => {}, error: () => {} }

notificationChannelContract('webhook', async () => {
  const receiver = await startWebhookReceiver()
  const settings = (urls: string[]): WebhookSettings => ({
    enabled: true,
    urls,
    secret: 'contract',
    events: [],
    timeoutMs: 2000,
    maxAttempts: 3,
  })
  const dispatchers: WebhookDispatcher[] = []
  const channel = (urls: string[]) => {
    const dispatcher = new WebhookDispatcher({
      settings: async () => settings(urls),
      logger: silent,
      userAgent: 'Tern-Webhook/contract',
      retry: { baseDelayMs: 20, maxDelayMs: 200 },
      channel: `webhook-contract-${process.pid}`,
    })
    dispatchers.push(dispatcher)
    return new WebhookChannel(dispatcher)
  }
  return {
    channel: () => channel([receiver.url]),
    failingChannel: () => channel(['ftp://nowhere.test/hook']),
    received: async () =>
      receiver.received.map((request) => ({
        key: (request.headers['x-tern-delivery'] as string | undefined) ?? null,
        text: request.body,
      })),
    idempotency: 'dedupes',
    close: async () => {
      for (const dispatcher of dispatchers) await dispatcher.close()
      await receiver.close()
    },
  }
})
