/**
 * The ntfy channel runs the notification-channel contract against a local
 * server answering like ntfy (tests/fake_ntfy.ts): the failing receiver is
 * the same server requiring a token the channel does not have (401).
 * Idempotency: ntfy itself does not dedupe, so every attempt of one event
 * carries the same `X-Tern-Event-Id`.
 */
import { notificationChannelContract } from '#tests/contracts/notification_channel_contract'
import { NtfyChannel } from '../../src/ntfy_channel.js'
import { startFakeNtfy } from '../fake_ntfy.js'

notificationChannelContract('ntfy', async () => {
  const ntfy = await startFakeNtfy()
  const refusing = await startFakeNtfy()
  refusing.requireToken('tk_only_this_one')
  const settings = (server: string) => async () => ({
    server,
    topic: 'contract',
    token: '',
    priority: 3,
  })
  return {
    channel: () =>
      new NtfyChannel({
        settings: settings(ntfy.url),
        userAgent: 'Tern-ntfy/contract',
        timeoutMs: 2000,
      }),
    failingChannel: () =>
      new NtfyChannel({
        settings: settings(refusing.url),
        userAgent: 'Tern-ntfy/contract',
        timeoutMs: 2000,
      }),
    received: async () =>
      ntfy.received
        .filter((publication) => publication.status === 200)
        .map((publication) => ({
          key: (publication.headers['x-tern-event-id'] as string | undefined) ?? null,
          text: `${publication.title}\n${publication.message}`,
        })),
    idempotency: 'key',
    close: async () => {
      await ntfy.close()
      await refusing.close()
    },
  }
})
