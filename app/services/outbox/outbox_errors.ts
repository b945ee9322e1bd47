/** Errors of the admin API of the notification outbox. */
import { Exception } from '@adonisjs/core/exceptions'

/** No delivery has this id (or it was discarded). */
export class DeliveryNotFoundException extends Exception {
  static status = 404
  static code = 'E_DELIVERY_NOT_FOUND'

  constructor(message = 'No notification delivery with this id (it may have been discarded)') {
    super(message)
  }
}

/** Only failed deliveries can be retried or discarded; this one is pending or delivered. */
export class DeliveryNotFailedException extends Exception {
  static status = 409
  static code = 'E_DELIVERY_NOT_FAILED'

  constructor(status: string) {
    super(`Only failed deliveries can be retried or discarded; this one is ${status}`)
  }
}
