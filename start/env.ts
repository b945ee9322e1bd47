/*
|--------------------------------------------------------------------------
| Environment variables service
|--------------------------------------------------------------------------
|
| Only what must be known before the database is reachable lives in the
| environment (spec/config.md). A bad value stops the start with a message
| that names the variable.
|
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum.optional(['development', 'production', 'test'] as const),
  PORT: Env.schema.number.optional(),
  HOST: Env.schema.string.optional({ format: 'host' }),
  DATA_DIR: Env.schema.string(),
  APP_KEY: Env.schema.secret(),
  LOG_LEVEL: Env.schema.enum.optional([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const),
  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'mysql', 'pg'] as const),
  DB_HOST: Env.schema.string.optional({ format: 'host' }),
  DB_PORT: Env.schema.number.optional(),
  DB_USER: Env.schema.string.optional(),
  DB_PASSWORD: Env.schema.string.optional(),
  DB_DATABASE: Env.schema.string.optional(),
  TERN_PLUGINS: Env.schema.string.optional(),
  /** Extra folders searched for plugins (comma separated; relative to the app root), e.g. test fixtures. */
  TERN_PLUGIN_PATHS: Env.schema.string.optional(),
  REDIS_URL: Env.schema.string.optional({ format: 'url', tld: false }),
})
