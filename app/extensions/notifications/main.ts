/**
 * The notification extension point's public surface: the process-wide
 * manager (also bound as `notifications.manager`) and its types.
 */
import { NotificationManager } from './manager.js'

/** The application's notification manager. */
export const notifications = new NotificationManager()

export { NotificationManager } from './manager.js'
export { FakeNotificationChannel, type SentNotification } from './fake_channel.js'
export * as notificationErrors from './errors.js'
export { NotificationDeliveryError, type DeliveryErrorOptions } from './delivery_error.js'
export type * from './types.js'
export * from './events.js'
