import { definePlugin } from '#extensions/plugins/define_plugin'
import { emailNotificationsConfigCategory } from './src/settings.js'

/**
 * The e-mail plugin: the `email` notification channel, sending over SMTP with
 * AdonisJS Mail, configured on every send from the `smtp.*` settings.
 */
export const manifest = definePlugin({
  id: 'email',
  displayName: 'E-mail',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sends notifications as e-mails over SMTP: password reset, invitations, share recipients, and every event an admin or a user routes to e-mail (to the user, or to the addresses of the E-mail notifications category). SMTP is configured in the admin settings (SMTP category).',
  provides: { notifications: ['email'] },
  requires: [],
  config: [emailNotificationsConfigCategory],
  env: [],
})
