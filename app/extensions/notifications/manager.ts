/**
 * Registry and manager of notification channels: plugins register named
 * channel factories, the application sends through `use(name)`.
 */
import {
  E_NOTIFICATION_CHANNEL_EXISTS,
  E_NOTIFICATION_CHANNEL_UNKNOWN,
  E_NOTIFICATION_SEND_FAILED,
} from './errors.js'
import { FakeNotificationChannel } from './fake_channel.js'
import type {
  Notification,
  NotificationChannelContract,
  NotificationChannelFactory,
} from './types.js'

/** Caches channel instances per name; every send is wrapped with a coded error. */
export class NotificationManager {
  #factories = new Map<string, NotificationChannelFactory>()
  #channels = new Map<string, NotificationChannelContract>()
  #fake?: FakeNotificationChannel

  /** Registers a channel factory. Throws `E_NOTIFICATION_CHANNEL_EXISTS` when the name is taken. */
  register(name: string, factory: NotificationChannelFactory): this {
    if (this.#factories.has(name)) throw new E_NOTIFICATION_CHANNEL_EXISTS([name])
    this.#factories.set(name, factory)
    return this
  }

  /** True when a channel is registered under `name`. */
  has(name: string): boolean {
    return this.#factories.has(name)
  }

  /** Registered channel names, in registration order. */
  names(): string[] {
    return [...this.#factories.keys()]
  }

  /**
   * A facade over channel `name` (built once, cached) whose `send` rethrows
   * failures as `E_NOTIFICATION_SEND_FAILED` with the cause. While faked,
   * sends are recorded instead. Throws `E_NOTIFICATION_CHANNEL_UNKNOWN`.
   */
  use(name: string): NotificationChannelContract {
    if (!this.#factories.has(name)) throw new E_NOTIFICATION_CHANNEL_UNKNOWN([name])
    if (this.#fake) return this.#fake.channel(name)
    let channel = this.#channels.get(name)
    if (!channel) {
      channel = this.#factories.get(name)!()
      this.#channels.set(name, channel)
    }
    const target = channel
    return {
      send: async (notification: Notification) => {
        try {
          await target.send(notification)
        } catch (error) {
          throw new E_NOTIFICATION_SEND_FAILED([name, notification.type], { cause: error })
        }
      },
      close: async () => target.close?.(),
    }
  }

  /** Sends through channel `name` (shortcut of `use(name).send`). */
  send(name: string, notification: Notification): Promise<void> {
    return this.use(name).send(notification)
  }

  /** Replaces every channel with one recorder until `restore()`; returns it. */
  fake(): FakeNotificationChannel {
    this.#fake ??= new FakeNotificationChannel()
    return this.#fake
  }

  /** Removes the fake. */
  restore(): void {
    this.#fake = undefined
  }

  /** Closes every built channel (errors are collected and rethrown as one). */
  async closeAll(): Promise<void> {
    const channels = [...this.#channels.values()]
    this.#channels.clear()
    const results = await Promise.allSettled(channels.map((channel) => channel.close?.()))
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failures.length) {
      throw new AggregateError(failures.map((f) => f.reason), 'Closing notification channels failed')
    }
  }
}
