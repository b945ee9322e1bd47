/**
 * The recorder `notifications.fake()` puts in place of every channel.
 */
import { AssertionError } from 'node:assert'
import type { Notification, NotificationChannel, NotificationMessage } from './types.js'

/** One recorded send. */
export interface SentNotification {
  /** The channel name it was sent through. */
  channel: string
  notification: Notification
}

/** Records sends instead of delivering them, with assertions. */
export class FakeNotificationChannel {
  /** Every send, in order. */
  readonly sent: SentNotification[] = []
  /** Every routed message delivered, in order. */
  readonly delivered: { channel: string; message: NotificationMessage }[] = []

  /** A channel bound to `name` that records into this fake. */
  channel(name: string): NotificationChannel {
    return {
      send: async (notification) => {
        this.sent.push({ channel: name, notification })
      },
      deliver: async (message) => {
        this.delivered.push({ channel: name, message })
      },
      close: async () => {},
    }
  }

  /** The sends matching `predicate` (all when omitted). */
  sends(predicate?: (sent: SentNotification) => boolean): SentNotification[] {
    return predicate ? this.sent.filter(predicate) : [...this.sent]
  }

  /** Throws an `AssertionError` unless at least one send matches. */
  assertSent(predicate: (sent: SentNotification) => boolean): void {
    if (!this.sent.some(predicate)) {
      throw new AssertionError({
        message: 'Expected a matching notification to be sent',
        actual: this.sent,
      })
    }
  }

  /** Throws an `AssertionError` when anything was sent. */
  assertNothingSent(): void {
    if (this.sent.length) {
      throw new AssertionError({
        message: `Expected no notification, ${this.sent.length} sent`,
        actual: this.sent,
      })
    }
  }

  /** Forgets the recorded sends. */
  clear(): void {
    this.sent.length = 0
    this.delivered.length = 0
  }
}
