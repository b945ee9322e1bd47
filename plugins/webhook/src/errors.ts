/** Coded errors of the webhook plugin. */
import { createError } from '@adonisjs/core/exceptions'

/** A notification was sent through the `webhook` channel while `webhook.enabled` is off. */
export const E_WEBHOOK_DISABLED = createError('Webhooks are disabled', 'E_WEBHOOK_DISABLED', 400)

/** Webhooks are enabled but `webhook.urls` holds no usable URL. */
export const E_WEBHOOK_NOT_CONFIGURED = createError(
  'Webhooks are not configured: webhook.urls has no valid http:// or https:// URL',
  'E_WEBHOOK_NOT_CONFIGURED',
  400
)
