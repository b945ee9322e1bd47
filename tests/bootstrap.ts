import { assert } from '@japa/assert'
import type { Config } from '@japa/runner/types'
import { apiClient } from '@japa/api-client'
import { browserClient } from '@japa/browser-client'
import app from '@adonisjs/core/services/app'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import testUtils from '@adonisjs/core/services/test_utils'

/**
 * Japa plugins. `authApiClient` gives requests `loginAs(user)` (the `pingvin`
 * guard's `authenticateAsClient`). The browser client starts Chromium
 * (tests/helpers/browser.ts) for the browser suite only, so unit and
 * functional runs never launch it.
 */
export const plugins: Config['plugins'] = [
  assert(),
  apiClient(),
  pluginAdonisJS(app),
  authApiClient(app),
  browserClient({
    runInSuites: ['browser'],
    launcher: async (options) => (await import('#tests/helpers/browser')).launchChromium(options),
    contextOptions: { baseURL: `http://${process.env.HOST}:${process.env.PORT}` },
  }),
]

/**
 * Before all tests: the database of this run is migrated from scratch.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    // Not testUtils.db().migrate(): Lucid's migration lock is one name for the whole MySQL
    // server, taken without waiting and released through the pool, so parallel runs made each
    // other fail ("unable to release database lock"). Each run has its own database: no lock.
    async () => {
      const ace = await app.container.make('ace')
      const run = async (name: string) => {
        const command = await ace.exec(name, [
          '--compact-output',
          '--no-schema-generate',
          '--disable-locks',
        ])
        if (command.exitCode) throw command.error ?? new Error(`"${name}" failed`)
      }
      await run('migration:run')
      return () => run('migration:reset')
    },
    async () => {
      const { default: ConfigService } = await import('#services/config/config_service')
      const configService = await app.container.make(ConfigService)
      const { default: InstanceSecretService } =
        await import('#services/auth/instance_secret_service')
      await configService.seed()
      await (await app.container.make(InstanceSecretService)).ensureAll()
    },
  ],
  teardown: [],
}

/** How long each suite of this run took, in the order they ran (printed at the end). */
const suiteDurations: { name: string; ms: number }[] = []

/** `12 min 5 s`, `41 s`, `0.4 s`: durations as a person reads them. */
function minutesAndSeconds(ms: number) {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`
}

/**
 * One line at the end of every run with each suite's duration and the
 * database (CI time is a budget: .ci/run collects these lines into its summary).
 */
runnerHooks.teardown.push(() => {
  if (suiteDurations.length === 0) return
  const each = suiteDurations.map(({ name, ms }) => `${name} ${minutesAndSeconds(ms)}`).join(', ')
  console.log(`tern: suite durations on ${process.env.DB_CONNECTION ?? 'sqlite'}: ${each}`)
})

/**
 * Each suite is timed. The HTTP server starts only for the suites that need
 * it; before the browser suite, the dev server transforms the pages' modules
 * (tests/helpers/dev_server_warmup.ts).
 */
export const configureSuite: Config['configureSuite'] = (suite) => {
  let started = 0
  suite.setup(() => {
    started = performance.now()
  })
  suite.teardown(() => {
    suiteDurations.push({ name: suite.name, ms: performance.now() - started })
  })
  if (suite.name === 'browser') {
    return suite.setup(async () => {
      const close = await testUtils.httpServer().start()
      const { warmUpDevServer } = await import('#tests/helpers/dev_server_warmup')
      await warmUpDevServer(`http://${process.env.HOST}:${process.env.PORT}`)
      return close
    })
  }
  if (suite.name === 'functional') {
    return suite.setup(() => testUtils.httpServer().start())
  }
}
