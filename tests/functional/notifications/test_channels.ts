/**
 * Channels for the routing tests, registered in the application's channel
 * registry and given the outbox handler the provider gives every channel at
 * start (routed rows to `deliver`): one that records what it got, can fail
 * its first attempts, or block until released.
 */
import app from '@adonisjs/core/services/app'
import {
  NotificationDeliveryError,
  notifications,
  type NotificationChannelContract,
  type NotificationEventId,
  type NotificationMessage,
} from '#extensions/notifications/main'
import OutboxService from '#services/outbox/outbox_service'
import { channelHandler, routedHandler } from '#services/outbox/channel_handler'

/** Options of a test channel. */
export interface TestChannelOptions {
  events?: NotificationEventId[]
  targets?: { user: boolean; instance: boolean }
  /** Fail this many attempts (retryable) before accepting. */
  failFirst?: number
}

/** A registered test channel. */
export interface TestChannel {
  name: string
  /** Messages accepted, in order. */
  delivered: NotificationMessage[]
  /** Attempts made (failed ones included). */
  attempts: number
  /** Makes `deliver` wait until `release()`; resolves `entered` when an attempt is waiting. */
  block(): { entered: Promise<void>; release: () => void }
  /** Unregisters the channel and its outbox handler. */
  remove(): Promise<void>
}

/** Registers a test channel under `name` (see the module comment). */
export async function registerTestChannel(
  name: string,
  options: TestChannelOptions = {}
): Promise<TestChannel> {
  const outbox = await app.container.make(OutboxService)
  let gate: Promise<void> | null = null
  let entered: (() => void) | null = null
  const state: TestChannel = {
    name,
    delivered: [],
    attempts: 0,
    block() {
      let release!: () => void
      gate = new Promise<void>((resolve) => (release = resolve))
      const reached = new Promise<void>((resolve) => (entered = resolve))
      return {
        entered: reached,
        release: () => {
          gate = null
          release()
        },
      }
    },
    async remove() {
      unhandle()
      await notifications.unregister(name)
    },
  }
  const channel: NotificationChannelContract = {
    events: options.events,
    targets: options.targets ?? { user: true, instance: true },
    async deliver(message) {
      state.attempts++
      entered?.()
      if (gate) await gate
      if (state.attempts <= (options.failFirst ?? 0)) {
        throw new NotificationDeliveryError(
          `test channel ${name} refused attempt ${state.attempts}`
        )
      }
      state.delivered.push(message)
    },
  }
  notifications.register(name, () => channel)
  const unhandle = outbox.handle(
    name,
    routedHandler(notifications, name, channelHandler(notifications, name))
  )
  return state
}
