import { definePlugin } from '#extensions/plugins/define_plugin'
import { webhookConfigCategory } from './src/settings.js'

/**
 * The webhook plugin: the `webhook` notification channel. The events an
 * admin routes to it are sent as signed JSON POSTs to the URLs of the admin
 * category "Webhooks" (`webhook.*`); its deliveries have a page in the
 * admin panel.
 */
export const manifest = definePlugin({
  id: 'webhook',
  displayName: 'Webhooks',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'POSTs the notification events routed to it (shares, reverse shares, accounts) as JSON signed with HMAC-SHA256 to configured URLs, with retries. Configured in the admin settings (Webhooks category); deliveries listed in the admin panel.',
  provides: { notifications: ['webhook'], admin: true },
  requires: [],
  config: [webhookConfigCategory],
  env: [
    {
      name: 'WEBHOOK_RETRY_BASE_DELAY_MS',
      required: false,
      description:
        'Wait after the first failed attempt, in ms (default 1000; doubled after each further failure).',
    },
    {
      name: 'WEBHOOK_RETRY_MAX_DELAY_MS',
      required: false,
      description: 'Longest wait between two attempts, in ms (default 60000).',
    },
  ],
})
