import { definePlugin } from '#extensions/plugins/define_plugin'
import { ntfyConfigCategory } from './src/settings.js'

/**
 * The ntfy plugin: the `ntfy` notification channel, publishing the events an
 * admin routes to it to a topic of an ntfy server (admin category "ntfy").
 */
export const manifest = definePlugin({
  id: 'ntfy',
  displayName: 'ntfy',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Publishes the notification events an admin routes to it (shares, reverse shares, accounts) as push notifications to a topic of an ntfy server (ntfy.sh or your own). Configured in the admin settings (ntfy category).',
  provides: { notifications: ['ntfy'] },
  requires: [],
  config: [ntfyConfigCategory],
  env: [],
})
