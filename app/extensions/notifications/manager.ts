/**
 * Registry and manager of notification channels: plugins register named
 * channel factories, the application sends through `use(name)`.
 */
import { NotificationDeliveryError } from './delivery_error.js'
import {
  E_NOTIFICATION_CHANNEL_EXISTS,
  E_NOTIFICATION_CHANNEL_UNKNOWN,
  E_NOTIFICATION_SEND_FAILED,
  E_NOTIFICATION_UNSUPPORTED,
} from './errors.js'
import { NOTIFICATION_EVENTS } from './events.js'
import { FakeNotificationChannel } from './fake_channel.js'
import type {
  Notification,
  NotificationChannel,
  NotificationChannelContract,
  NotificationChannelFactory,
  NotificationChannelInfo,
  NotificationMessage,
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

  /**
   * Removes channel `name` (tests, a plugin switched off at run time) and
   * closes its instance if one was built. False when none was registered.
   */
  async unregister(name: string): Promise<boolean> {
    const channel = this.#channels.get(name)
    this.#channels.delete(name)
    const known = this.#factories.delete(name)
    await channel?.close?.()
    return known
  }

  /** True when a channel is registered under `name`. */
  has(name: string): boolean {
    return this.#factories.has(name)
  }

  /** Registered channel names, in registration order. */
  names(): string[] {
    return [...this.#factories.keys()]
  }

  /** The channel instance behind `name` (built once, cached). Throws `E_NOTIFICATION_CHANNEL_UNKNOWN`. */
  #instance(name: string): NotificationChannelContract {
    if (!this.#factories.has(name)) throw new E_NOTIFICATION_CHANNEL_UNKNOWN([name])
    let channel = this.#channels.get(name)
    if (!channel) {
      channel = this.#factories.get(name)!()
      this.#channels.set(name, channel)
    }
    return channel
  }

  /**
   * What channel `name` can be routed to, or null when it cannot be routed
   * (no `deliver` or no `targets`, or neither target). Builds the channel.
   */
  describe(name: string): NotificationChannelInfo | null {
    const channel = this.#instance(name)
    if (typeof channel.deliver !== 'function' || !channel.targets) return null
    const targets = {
      user: channel.targets.user === true,
      instance: channel.targets.instance === true,
    }
    if (!targets.user && !targets.instance) return null
    const events = channel.events
      ? NOTIFICATION_EVENTS.filter((event) => channel.events!.includes(event))
      : [...NOTIFICATION_EVENTS]
    return { name, events, targets }
  }

  /**
   * Whether channel `name` can deliver now (its `available()`; true without
   * one, false when it rejects). Builds the channel. Throws
   * `E_NOTIFICATION_CHANNEL_UNKNOWN`.
   */
  async available(name: string): Promise<boolean> {
    const channel = this.#instance(name)
    if (typeof channel.available !== 'function') return true
    try {
      return (await channel.available()) === true
    } catch {
      return false
    }
  }

  /** Every routable channel (see `describe`), in registration order. */
  routable(): NotificationChannelInfo[] {
    return this.names()
      .map((name) => this.describe(name))
      .filter((info): info is NotificationChannelInfo => info !== null)
  }

  /**
   * A facade over channel `name` (built once, cached) whose `send` and
   * `deliver` rethrow failures as `E_NOTIFICATION_SEND_FAILED` with the
   * cause (a `NotificationDeliveryError` passes unchanged, so the outbox
   * sees whether to retry). While faked, calls are recorded instead.
   * Throws `E_NOTIFICATION_CHANNEL_UNKNOWN`.
   */
  use(name: string): NotificationChannel {
    if (!this.#factories.has(name)) throw new E_NOTIFICATION_CHANNEL_UNKNOWN([name])
    if (this.#fake) return this.#fake.channel(name)
    const target = this.#instance(name)
    return {
      send: async (notification: Notification) => {
        try {
          if (!target.send) throw new E_NOTIFICATION_UNSUPPORTED([name, 'send'])
          await target.send(notification)
        } catch (error) {
          throw new E_NOTIFICATION_SEND_FAILED([name, notification.type], { cause: error })
        }
      },
      deliver: async (message: NotificationMessage) => {
        try {
          if (!target.deliver) throw new E_NOTIFICATION_UNSUPPORTED([name, 'deliver'])
          await target.deliver(message)
        } catch (error) {
          if (error instanceof NotificationDeliveryError) throw error
          throw new E_NOTIFICATION_SEND_FAILED([name, message.event], { cause: error })
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
      throw new AggregateError(
        failures.map((f) => f.reason),
        'Closing notification channels failed'
      )
    }
  }
}
