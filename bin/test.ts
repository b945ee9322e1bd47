/*
|--------------------------------------------------------------------------
| Test runner entrypoint
|--------------------------------------------------------------------------
|
| Creates the run's own database and DATA_DIR, boots the application in the
| test environment and runs Japa.
|
*/
process.env.NODE_ENV = 'test'

import 'reflect-metadata'
import { prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { createIgnitor } from '#start/ignitor'
import { createTestDatabase, freePort } from '#tests/helpers/test_database'

/**
 * The whole suite runs with the test fixture plugin enabled next to the
 * default ones, so every extension point is exercised by a real plugin.
 */
process.env.TERN_PLUGINS ??=
  'local-storage,email,s3-storage,fixture,webhook,ntfy,oidc,github,google,discord,microsoft,gcs-storage,recording-channel,forty-two,ldap'
process.env.TERN_PLUGIN_PATHS ??= 'tests/fixtures/plugins'

/**
 * Rate limits with a short window, so tests prove both the 429 and the
 * recovery without waiting a minute. Counters live in the database store.
 */
process.env.RATE_LIMIT_WINDOW ??= '2 seconds'
process.env.RATE_LIMIT_PER_IDENTIFIER ??= '5'
process.env.RATE_LIMIT_PER_IP ??= '50'
process.env.RATE_LIMIT_PER_ACCOUNT ??= '20'

/** Webhook retries wait 50 ms, 100 ms, ... instead of 1 s, 2 s, ... (plugins/webhook). */
process.env.WEBHOOK_RETRY_BASE_DELAY_MS ??= '50'

/** The notification outbox polls every 200 ms and retries after 50 ms, 100 ms, ... (app/services/outbox). */
process.env.OUTBOX_POLL_INTERVAL_MS ??= '200'
process.env.OUTBOX_RETRY_BASE_DELAY_MS ??= '50'
process.env.OUTBOX_MAX_ATTEMPTS ??= '6'

const database = await createTestDatabase()
process.env.HOST = '127.0.0.1'
process.env.PORT = String(await freePort())
/**
 * Vite's page client opens its socket even without hot reload, on the port
 * @adonisjs/vite reads from VITE_HMR_PORT. The runner sets that to 24678 when
 * 24678 is free as it starts, so runs starting together on one machine took the
 * same port: a page of one run reached the other's socket, which refused its
 * token, and the console errors failed its browser tests. A port the system
 * hands out (ephemeral, random) is this run's alone.
 */
process.env.VITE_HMR_PORT = String(await freePort())

createIgnitor(new URL('../', import.meta.url))
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      ...{
        setup: runnerHooks.setup,
        teardown: runnerHooks.teardown.concat([() => app.terminate(), () => database.drop()]),
      },
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
