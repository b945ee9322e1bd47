/** Coded errors of the notification-channel extension point. */
import { createError } from '@adonisjs/core/exceptions'

/** A second channel was registered under a name that is taken. */
export const E_NOTIFICATION_CHANNEL_EXISTS = createError<[name: string]>(
  'A notification channel named "%s" is already registered',
  'E_NOTIFICATION_CHANNEL_EXISTS',
  500
)

/** `use(name)` named a channel nobody registered. */
export const E_NOTIFICATION_CHANNEL_UNKNOWN = createError<[name: string]>(
  'Notification channel "%s" is not registered',
  'E_NOTIFICATION_CHANNEL_UNKNOWN',
  500
)

/** The channel failed to deliver (the channel's error is the `cause`). */
export const E_NOTIFICATION_SEND_FAILED = createError<[name: string, type: string]>(
  'Notification channel "%s" failed to send "%s"',
  'E_NOTIFICATION_SEND_FAILED',
  500
)

/** The channel cannot do what was asked (`send` or `deliver` is not implemented). */
export const E_NOTIFICATION_UNSUPPORTED = createError<[name: string, method: string]>(
  'Notification channel "%s" does not implement %s',
  'E_NOTIFICATION_UNSUPPORTED',
  500
)
