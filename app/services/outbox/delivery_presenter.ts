/**
 * What admins see of a delivery: never the payload (it may hold a reset
 * link or a mail body), and URLs without their query string.
 */
import type { OutboxDelivery } from '#services/outbox/outbox_store'
import { redactDeliveryError } from '#services/outbox/redact'

/** A delivery in the admin API (`GET /api/notifications/deliveries`). */
export interface DeliveryJson {
  id: string
  eventId: string
  eventType: string
  channel: string
  target: string
  status: OutboxDelivery['status']
  attempts: number
  maxAttempts: number
  lastError: string | null
  createdAt: string
  updatedAt: string
  nextAttemptAt: string | null
  deliveredAt: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** See the module comment. */
export function presentDelivery(delivery: OutboxDelivery): DeliveryJson {
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
