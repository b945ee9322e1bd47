import { signInSettings } from '#extensions/auth/settings'
import { definePlugin } from '#extensions/plugins/define_plugin'

/** The Discord plugin: the `discord` sign-in provider (settings `oauth.discord-*`, "Social Login"). */
export const manifest = definePlugin({
  id: 'discord',
  displayName: 'Discord sign-in',
  version: '1.0.0',
  engine: '^1.0.0',
  description:
    'Sign in with a Discord account, optionally only for members of one server. Configured in the admin settings (Social Login category).',
  provides: { auth: ['discord'] },
  requires: [],
  config: [
    signInSettings('discord', {
      order: 40,
      extra: [
        {
          key: 'oauth.discord-limitedGuild',
          type: 'string',
          defaultValue: '',
          validation: { pattern: /^\d{1,25}$/, message: 'Discord guild ID must be a number' },
          description: 'Empty = any guild',
        },
      ],
    }),
  ],
  env: [
    {
      name: 'DISCORD_BASE_URL',
      required: false,
      description: 'Base URL replacing https://discord.com (tests).',
    },
  ],
})
