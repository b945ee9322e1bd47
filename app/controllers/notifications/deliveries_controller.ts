import type { HttpContext } from '@adonisjs/core/http'
import { inject } from '@adonisjs/core'
import OutboxService from '#services/outbox/outbox_service'
import DeliveryTransformer from '#transformers/delivery_transformer'
import {
  DeliveryNotFailedException,
  DeliveryNotFoundException,
} from '#services/outbox/outbox_errors'

const STATUSES = ['failed', 'pending', 'delivered'] as const
const CHANNEL = /^[A-Za-z0-9_.:-]{1,64}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Admin routes of the notification outbox (`/api/notifications/deliveries`):
 * the failed deliveries with their last error, retry and discard.
 */
@inject()
export default class DeliveriesController {
  constructor(protected outbox: OutboxService) {}

  /**
   * GET ?status=failed|pending|delivered (default failed)&channel=<name> (optional):
   * 200 delivery[], newest first (at most 500).
   */
  async index({ request, response }: HttpContext) {
    const asked = String(request.input('status', 'failed'))
    const status = STATUSES.find((known) => known === asked)
    if (!status) {
      return response.badRequest({
        statusCode: 400,
        message: `Unknown delivery status "${asked.slice(0, 40)}"; use failed, pending or delivered`,
        error: 'Bad Request',
      })
    }
    const channel = request.input('channel')
    if (channel !== undefined && (typeof channel !== 'string' || !CHANNEL.test(channel))) {
      return response.badRequest({
        statusCode: 400,
        message:
          'The channel filter must be a channel name (letters, digits, "-", "_" and ".", at most 64)',
        error: 'Bad Request',
      })
    }
    const deliveries = await this.outbox.list(status, 500, channel)
    return response.ok(deliveries.map((delivery) => DeliveryTransformer.toJSON(delivery)))
  }

  /** POST /:id/retry: 200 the delivery, pending again with fresh attempts; 404 unknown, 409 not failed. */
  async retry({ params, response }: HttpContext) {
    const delivery = await this.#failed(params.id)
    await this.outbox.retry(delivery.id)
    return response.ok(
      DeliveryTransformer.toJSON((await this.outbox.find(delivery.id)) ?? delivery)
    )
  }

  /** DELETE /:id: 204 once the failed delivery is discarded; 404 unknown, 409 not failed. */
  async destroy({ params, response }: HttpContext) {
    const delivery = await this.#failed(params.id)
    if (!(await this.outbox.discard(delivery.id)))
      throw new DeliveryNotFailedException('no longer failed')
    return response.noContent()
  }

  async #failed(id: unknown) {
    const delivery = typeof id === 'string' && UUID.test(id) ? await this.outbox.find(id) : null
    if (!delivery) throw new DeliveryNotFoundException()
    if (delivery.status !== 'failed') throw new DeliveryNotFailedException(delivery.status)
    return delivery
  }
}
