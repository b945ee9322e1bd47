/**
 * The notification outbox objects of the admin API
 * (`/api/notifications/deliveries`), shared by the server
 * (app/transformers/delivery_transformer.ts) and the admin panel
 * (`#api/notifications`). Plain types only.
 */

/** Where a delivery stands. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/**
 * A delivery as admins see it: never the payload (it may hold a reset link
 * or a mail body), event ids and targets redacted (URLs without their query
 * string). Times are ISO 8601.
 */
export interface Delivery {
  id: string
  eventId: string
  eventType: string
  channel: string
  target: string
  status: DeliveryStatus
  attempts: number
  maxAttempts: number
  lastError: string | null
  createdAt: string
  updatedAt: string
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: string | null
  deliveredAt: string | null
}
