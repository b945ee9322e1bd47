/**
 * The notification-channel contract suite. Every plugin providing a channel
 * that can be routed calls `notificationChannelContract(name, setup)` from a
 * spec file; `setup` starts a real receiver (an SMTP server, an HTTP
 * server on loopback) and returns a harness. The suite checks that the
 * channel declares its events and targets coherently, that `deliver`
 * resolves once the receiver got the message (for each target it declares),
 * rejects with a coded error when the receiver refuses or is down (so the
 * outbox retries or gives up), is idempotent on `eventId` (the receiver can
 * tell a repeated delivery), and that `close()` twice is safe.
 *
 * ```ts
 * notificationChannelContract('ntfy', async () => {
 *   const server = await startNtfyServer()
 *   return {
 *     channel: () => new NtfyChannel({ settings: async () => ({ url: server.url, topic: 't' }) }),
 *     failingChannel: () => new NtfyChannel({ settings: async () => ({ url: server.refusingUrl, topic: 't' }) }),
 *     received: async () => server.requests.map((r) => ({ key: r.headers['x-tern-event-id'], text: r.body })),
 *     idempotency: 'key',
 *     close: () => server.close(),
 *   }
 * })
 * ```
 */
import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import {
  NOTIFICATION_EVENTS,
  NotificationManager,
  type NotificationChannelContract,
  type NotificationEventId,
  type NotificationEventPayloads,
  type NotificationMessage,
} from '#extensions/notifications/main'

/** What a receiver got for one delivery. */
export interface ReceivedNotification {
  /**
   * What lets the receiver recognise a repeated delivery (a Message-ID, an
   * `Idempotency-Key` or event-id header), or null when there is none.
   */
  key: string | null
  /** Everything readable the receiver got (subject, title, body), to find the rendered texts in. */
  text: string
}

/** What the suite needs from the channel's spec. */
export interface NotificationChannelHarness {
  /** A fresh channel delivering to the working receiver. */
  channel(): NotificationChannelContract | Promise<NotificationChannelContract>
  /** A channel whose receiver refuses or cannot be reached. */
  failingChannel(): NotificationChannelContract | Promise<NotificationChannelContract>
  /** What the working receiver got so far, in arrival order. */
  received(): Promise<ReceivedNotification[]>
  /**
   * How the channel is idempotent on `eventId`: `dedupes` (a repeated
   * delivery reaches the receiver once) or `key` (each reaches it, carrying
   * the same key, different for another event).
   */
  idempotency: 'dedupes' | 'key'
  /** Stops the receivers. */
  close?(): Promise<void>
}

/** A sample share of the payloads. */
function sampleShare(): NotificationEventPayloads['share.created']['share'] {
  return {
    id: 'contract-share',
    name: 'Holiday pictures',
    url: 'http://127.0.0.1/s/contract-share',
    expiresAt: '2030-01-01T12:00:00.000Z',
    creatorId: 'user-1',
    reverseShareId: null,
    fileCount: 2,
    size: 2048,
  }
}

/** A payload of `event` with plausible values (no secrets), for channel tests. */
export function samplePayload<E extends NotificationEventId>(
  event: E
): NotificationEventPayloads[E] {
  const share = sampleShare()
  const user = { id: 'user-1', username: 'ada', email: 'ada@tern.test' }
  const reverseShare = {
    id: 'contract-reverse',
    creatorId: 'user-1',
    remainingUses: 3,
    expiresAt: null,
  }
  const payloads: { [K in NotificationEventId]: NotificationEventPayloads[K] } = {
    'share.created': { share },
    'share.completed': { share },
    'share.downloaded': { share, file: { id: 'file-1', name: 'beach.jpg', size: 1024 } },
    'share.expiring': { share },
    'share.expired': { share },
    'share.deleted': { share, by: 'owner' },
    'reverse_share.used': { reverseShare, share },
    'reverse_share.expiring': {
      reverseShare: { ...reverseShare, expiresAt: '2030-01-01T12:00:00.000Z' },
    },
    'user.invited': { user, invitedBy: 'admin-1' },
    'auth.password_reset_requested': { user },
    'auth.new_device_sign_in': {
      user,
      device: 'Firefox on Linux',
      ip: '192.0.2.1',
      signedInAt: '2030-01-01T12:00:00.000Z',
    },
  }
  return payloads[event]
}

/**
 * A routed message of `event` with a fresh event id, rendered texts that
 * name it (so a receiver's text can be matched), and `recipient` for a
 * user route.
 */
export function sampleMessage<E extends NotificationEventId>(
  event: E,
  recipient?: NotificationMessage['recipient']
): NotificationMessage<E> {
  const eventId = randomUUID()
  return {
    event,
    payload: samplePayload(event),
    occurredAt: new Date().toISOString(),
    eventId,
    recipient,
    rendered: {
      subject: `Contract ${event} ${eventId.slice(0, 8)}`,
      text: `Contract body of ${event} (${eventId})`,
    },
  }
}

/** Resolves with the items `read` gives once `done` accepts them (polled for 5 s at most). */
async function until(
  read: () => Promise<ReceivedNotification[]>,
  done: (items: ReceivedNotification[]) => boolean,
  what: string
): Promise<ReceivedNotification[]> {
  const deadline = Date.now() + 5000
  for (;;) {
    const items = await read()
    if (done(items)) return items
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; received: ${JSON.stringify(items)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Registers the contract group of channel `name`. */
export function notificationChannelContract(
  name: string,
  setup: () => Promise<NotificationChannelHarness>
) {
  test.group(`Notification channel contract | ${name}`, (group) => {
    let harness: NotificationChannelHarness
    let channel: NotificationChannelContract
    group.setup(async () => {
      harness = await setup()
    })
    group.teardown(async () => {
      await harness?.close?.()
    })
    group.each.setup(async () => {
      channel = await harness.channel()
      return () => channel.close?.()
    })

    /** The events the channel accepts. */
    const accepted = () => (channel.events ? [...channel.events] : [...NOTIFICATION_EVENTS])
    /** The recipients of the targets the channel declares. */
    const targetRecipients = () => {
      const list: { kind: string; recipient?: NotificationMessage['recipient'] }[] = []
      if (channel.targets?.user)
        list.push({
          kind: 'user',
          recipient: { userId: 'user-1', email: 'ada@tern.test', locale: 'en-US' },
        })
      if (channel.targets?.instance) list.push({ kind: 'instance' })
      return list
    }

    test('declares its targets and events coherently, and the registry lists it as routable', ({
      assert,
    }) => {
      assert.isFunction(channel.deliver, 'deliver')
      assert.isObject(channel.targets, 'targets')
      assert.isBoolean(channel.targets!.user, 'targets.user')
      assert.isBoolean(channel.targets!.instance, 'targets.instance')
      assert.isTrue(channel.targets!.user || channel.targets!.instance, 'at least one target')
      if (channel.events) {
        assert.isAbove(
          channel.events.length,
          0,
          'an empty events list: omit it or deliver something'
        )
        assert.equal(new Set(channel.events).size, channel.events.length, 'events listed once')
        for (const event of channel.events) assert.include(NOTIFICATION_EVENTS, event)
      }
      const registry = new NotificationManager().register(name, () => channel)
      assert.deepEqual(registry.describe(name), {
        name,
        events: NOTIFICATION_EVENTS.filter((event) => accepted().includes(event)),
        targets: { user: channel.targets!.user, instance: channel.targets!.instance },
      })
    })

    test('deliver resolves once the receiver got the rendered message, for each declared target', async ({
      assert,
    }) => {
      for (const { kind, recipient } of targetRecipients()) {
        const message = sampleMessage(accepted()[0], recipient)
        const before = (await harness.received()).length
        await channel.deliver!(message)
        const items = await until(
          harness.received,
          (all) => all.length > before,
          `the ${kind} delivery`
        )
        assert.include(
          items
            .slice(before)
            .map((item) => item.text)
            .join('\n'),
          message.rendered.subject,
          kind
        )
      }
    })

    test('deliver accepts every event it declares', async ({ assert }) => {
      const [{ recipient }] = targetRecipients()
      const before = (await harness.received()).length
      for (const event of accepted()) await channel.deliver!(sampleMessage(event, recipient))
      const items = await until(
        harness.received,
        (all) => all.length >= before + accepted().length,
        'every event'
      )
      assert.isAtLeast(items.length - before, accepted().length)
    })

    test('deliver rejects with a coded error when the receiver refuses or is down', async ({
      assert,
    }) => {
      const failing = await harness.failingChannel()
      try {
        const [{ recipient }] = targetRecipients()
        let error: unknown
        try {
          await failing.deliver!(sampleMessage(accepted()[0], recipient))
        } catch (caught) {
          error = caught
        }
        assert.instanceOf(error, Error, 'deliver must reject')
        const coded = error as { code?: unknown; retryable?: unknown }
        assert.isString(coded.code, 'the error carries a code')
        assert.match(String(coded.code), /^E_[A-Z0-9_]+$/)
        if ('retryable' in coded) assert.isBoolean(coded.retryable)
      } finally {
        await failing.close?.()
      }
    })

    test('deliver is idempotent on eventId', async ({ assert }) => {
      const [{ recipient }] = targetRecipients()
      const message = sampleMessage(accepted()[0], recipient)
      const other = sampleMessage(accepted()[0], recipient)
      const before = (await harness.received()).length
      await channel.deliver!(message)
      await channel.deliver!({ ...message, occurredAt: new Date().toISOString() })
      await channel.deliver!(other)
      const ofEvent = (items: ReceivedNotification[], m: NotificationMessage) =>
        items.slice(before).filter((item) => item.text.includes(m.rendered.subject))
      const items = await until(
        harness.received,
        (all) => ofEvent(all, other).length > 0 && ofEvent(all, message).length > 0,
        'the deliveries'
      )
      const repeated = ofEvent(items, message)
      if (harness.idempotency === 'dedupes') {
        assert.lengthOf(repeated, 1, 'a repeated delivery reaches the receiver once')
      } else {
        const again = await until(
          harness.received,
          (all) => ofEvent(all, message).length >= 2,
          'the repeated delivery'
        )
        const keys = ofEvent(again, message).map((item) => item.key)
        assert.isString(keys[0], 'the receiver gets an idempotency key')
        assert.equal(keys[0], keys[1], 'the same key for the same event')
        assert.notEqual(ofEvent(again, other)[0].key, keys[0], 'another key for another event')
      }
    })

    test('close() twice is safe', async () => {
      const spare = await harness.channel()
      await spare.close?.()
      await spare.close?.()
    })
  })
}
