/*
|--------------------------------------------------------------------------
| Environment variables service
|--------------------------------------------------------------------------
|
| Only what must be known before the database is reachable lives in the
| environment (README.md lists the variables). A bad value stops the start
| with a message that names the variable.
|
*/
import { Env } from '@adonisjs/core/env'
import { parseWorkers } from '#start/cluster'

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
  REDIS_URL: (key: string, value?: string) => {
    if (value === undefined || value === '') return undefined
    if (!/^rediss?:\/\/\S+$/.test(value)) {
      throw new Error(
        `Value for environment variable "${key}" must be a redis:// or rediss:// URL, instead received "${value}"`
      )
    }
    return value
  },
  /**
   * Which proxies may set X-Forwarded-For (client IPs are used by rate limits)
   * and X-Forwarded-Proto (HTTPS: HSTS, Secure cookies): `true`, `false`, or
   * addresses/subnets/keywords comma separated. Default: loopback.
   */
  TRUST_PROXY: Env.schema.string.optional(),
  /**
   * The public address (`general.appUrl`), stored while the setting has no
   * value of its own, so it counts as confirmed with no sign-in step; an
   * address an admin stored is never replaced (ConfigService.seed).
   */
  APP_URL: Env.schema.string.optional(),
  /**
   * `Strict-Transport-Security` max-age in seconds, sent on answers to HTTPS
   * requests only (app/services/security/strict_transport_security.ts);
   * default 15552000 (180 days), 0 makes browsers forget it.
   */
  HSTS_MAX_AGE: (key: string, value?: string) => {
    if (value === undefined || value.trim() === '') return undefined
    if (!/^\d{1,10}$/.test(value.trim())) {
      throw new Error(
        `Value for environment variable "${key}" must be a number of seconds (0 or more), instead received "${value}"`
      )
    }
    return Number(value.trim())
  },
  /** Whether that header adds `includeSubDomains` (every subdomain of Tern's host HTTPS-only too); default false. */
  HSTS_INCLUDE_SUBDOMAINS: Env.schema.boolean.optional(),
  /** Where rate-limit counters live: database (default), redis (default when REDIS_URL is set) or memory. */
  LIMITER_STORE: Env.schema.enum.optional(['database', 'redis', 'memory'] as const),
  /** Rate-limit window of the guessable routes (sign-in, TOTP, sign-up, reset): "1 minute", "30s", "2 s"... */
  RATE_LIMIT_WINDOW: Env.schema.string.optional(),
  /** Attempts allowed per window, identifier (account, share, e-mail) and client IP; default 10. */
  RATE_LIMIT_PER_IDENTIFIER: Env.schema.number.optional(),
  /** Attempts allowed per window and client IP; default 30. */
  RATE_LIMIT_PER_IP: Env.schema.number.optional(),
  /** Attempts allowed per window and account (or share), from all IPs together; default 100. */
  RATE_LIMIT_PER_ACCOUNT: Env.schema.number.optional(),
  /** MiB streamed between two minor garbage collections during transfers (app/services/files/transfer_gc_pacer.ts); 0 = off, default 8. */
  TRANSFER_GC_STEP_MB: Env.schema.number.optional(),
  /** Notification outbox (app/services/outbox): how often each instance looks for due deliveries, in ms; default 2000. */
  OUTBOX_POLL_INTERVAL_MS: Env.schema.number.optional(),
  /** How long a claim of a delivery lasts unless renewed (every third of it while the attempt runs), in ms: a killed instance's claims are free again after it; default 15000. */
  OUTBOX_LEASE_MS: Env.schema.number.optional(),
  /** Longest delivery attempt, in ms: aborted then and retried later; default 300000. */
  OUTBOX_ATTEMPT_TIMEOUT_MS: Env.schema.number.optional(),
  /** Attempts per e-mail delivery before it is listed as failed for admins; default 8. */
  OUTBOX_MAX_ATTEMPTS: Env.schema.number.optional(),
  /** Wait after the first failed attempt, in ms, doubled after each further one (with jitter); default 5000. */
  OUTBOX_RETRY_BASE_DELAY_MS: Env.schema.number.optional(),
  /** Longest wait between two attempts, in ms; default 900000 (15 minutes). */
  OUTBOX_RETRY_MAX_DELAY_MS: Env.schema.number.optional(),
  /** Whether `npm start` applies the migrations (scripts/start_options.js); false for a separate migration step. Default true. */
  MIGRATE_ON_START: Env.schema.boolean.optional(),
  /** Bearer token of /metrics (app/services/system/metrics.ts); unset, /metrics answers 404. */
  METRICS_TOKEN: Env.schema.string.optional(),
  /**
   * HTTP worker processes on this machine (start/cluster.ts), 1 to 64; 1 = one
   * process, no cluster. Default: the cores (at most 8) in production, else 1.
   */
  TERN_WORKERS: (key: string, value?: string) => parseWorkers(key, value),
})
