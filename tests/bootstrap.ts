import { assert } from '@japa/assert'
import type { Config } from '@japa/runner/types'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'

/**
 * Japa plugins. The browser client is added by the browser suite itself
 * (tests/helpers/browser.ts) so unit and functional runs never start Chromium.
 */
export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * Before all tests: the database of this run is migrated from scratch.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [() => testUtils.db().migrate()],
  teardown: [],
}

/**
 * The HTTP server starts only for the suites that need it.
 */
export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional'].includes(suite.name)) {
    return suite.setup(() => testUtils.httpServer().start())
  }
}
