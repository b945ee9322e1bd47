import { definePlugin } from '#extensions/plugins/define_plugin'
import { webhookConfigCategory } from './src/settings.js'

/**
 * The webhook plugin: the `webhook` notification channel, and every share
 * lifecycle event sent as a signed JSON POST to the URLs of the admin
 * category "Webhooks" (`webhook.*`).
 */
export const manifest = definePlugin({
  id: 'webhook',
  displayName: 'Webhooks',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'POSTs share lifecycle events (created, completed, downloaded, expired, deleted, reverse share used) as JSON signed with HMAC-SHA256 to configured URLs, with retries. Configured in the admin settings (Webhooks category).',
  provides: {
    notifications: ['webhook'],
    hooks: [
      'share:created',
      'share:completed',
      'share:downloaded',
      'share:expired',
      'share:deleted',
      'reverse_share:used',
    ],
  },
  requires: [],
  config: [webhookConfigCategory],
  env: [
    {
      name: 'WEBHOOK_RETRY_BASE_DELAY_MS',
      required: false,
      description: 'Wait after the first failed attempt, in ms (default 1000; doubled after each further failure).',
    },
    {
      name: 'WEBHOOK_RETRY_MAX_DELAY_MS',
      required: false,
      description: 'Longest wait between two attempts, in ms (default 60000).',
    },
  ],
})
