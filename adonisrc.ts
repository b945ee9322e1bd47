import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  experimental: {},

  /**
   * Ace commands from packages; the application's own live in ./commands.
   */
  commands: [() => import('@adonisjs/core/commands'), () => import('@adonisjs/lucid/commands')],

  /**
   * Core providers first, then Tern's own. Plugins are not listed here: the
   * plugin provider loads the ones enabled by TERN_PLUGINS at run time.
   */
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/vite/vite_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('@adonisjs/shield/shield_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/bouncer/bouncer_provider'),
    () => import('@adonisjs/inertia/inertia_provider'),
    () => import('@adonisjs/i18n/i18n_provider'),
    () => import('@adonisjs/redis/redis_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/lock/lock_provider'),
    () => import('#providers/plugin_provider'),
    () => import('#providers/tern_provider'),
    () => import('#providers/jobs_provider'),
    () => import('#providers/outbox_provider'),
  ],

  preloads: [
    () => import('#start/routes'),
    () => import('#start/kernel'),
    { file: () => import('#start/redis'), environment: ['web', 'test'] },
  ],

  tests: {
    suites: [
      {
        files: ['tests/unit/**/*.spec.{ts,js}', 'plugins/*/tests/unit/**/*.spec.{ts,js}'],
        name: 'unit',
        timeout: 10000,
      },
      {
        files: [
          'tests/functional/**/*.spec.{ts,js}',
          'plugins/*/tests/functional/**/*.spec.{ts,js}',
        ],
        name: 'functional',
        timeout: 60000,
      },
      {
        files: ['tests/browser/**/*.spec.{ts,js}'],
        name: 'browser',
        timeout: 300000,
      },
    ],
    forceExit: true,
  },

  metaFiles: [
    { pattern: 'resources/views/**/*.edge', reloadServer: false },
    { pattern: 'resources/lang/**/*.{json,yaml,yml}', reloadServer: false },
    { pattern: 'public/**', reloadServer: false },
    { pattern: 'resources/branding/**', reloadServer: false },
  ],

  hooks: {
    buildStarting: [() => import('@adonisjs/vite/build_hook')],
  },
})
