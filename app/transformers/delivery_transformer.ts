/**
 * Shapes an outbox delivery for the admin API (`GET /api/notifications/deliveries`,
 * retry): never the payload (it may hold a reset link or a mail body), and
 * URLs without their query string.
 */
import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OutboxDelivery } from '#services/outbox/outbox_store'
import { redactDeliveryError } from '#services/outbox/redact'
import type { Delivery } from '#api/notifications'

export type { Delivery }

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Turns an `OutboxDelivery` into the admin's `Delivery`. */
export default class DeliveryTransformer extends BaseTransformer<OutboxDelivery> {
  /** The delivery object. */
  toObject(): Delivery {
    const delivery = this.resource
    return {
      id: delivery.id,
      eventId: redactDeliveryError(delivery.eventId),
      eventType: delivery.eventType,
      channel: delivery.channel,
      target: redactDeliveryError(delivery.target),
      status: delivery.status,
      attempts: delivery.attempts,
      maxAttempts: delivery.maxAttempts,
      lastError: delivery.lastError,
      createdAt: iso(delivery.createdAt)!,
      updatedAt: iso(delivery.updatedAt)!,
      nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
      deliveredAt: iso(delivery.deliveredAt),
    }
  }

  /** Plain delivery object for a response body. */
  static toJSON(delivery: OutboxDelivery): Delivery {
    return new DeliveryTransformer(delivery).toObject()
  }
}
