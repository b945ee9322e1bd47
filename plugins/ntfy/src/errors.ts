/** Coded errors of the ntfy plugin. */
import { createError } from '@adonisjs/core/exceptions'

/** A message was routed to `ntfy` while `ntfy.topic` (or `ntfy.server`) is empty. */
export const E_NTFY_NOT_CONFIGURED = createError(
  'ntfy is not configured: set the topic (ntfy.topic) in the admin settings',
  'E_NTFY_NOT_CONFIGURED',
  400
)
