import { definePlugin } from '#extensions/plugins/define_plugin'

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
    'Sends notifications (password reset, invitations, share recipients, reverse shares) as e-mails over SMTP, configured in the admin settings (SMTP category).',
  provides: { notifications: ['email'] },
  requires: [],
  env: [],
})
