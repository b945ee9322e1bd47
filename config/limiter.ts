/**
 * Rate-limit counters (@adonisjs/limiter). They live in the database (table
 * `rate_limits`) so every Tern process sharing the database shares them, or
 * in Redis when `REDIS_URL` is set. `LIMITER_STORE` forces a store
 * (`database`, `redis` or `memory`; memory is per process, for development).
 * The limits themselves are read by #services/auth/rate_limiter, which picks
 * the store by the same rule at every call.
 *
 * Every store counts with one atomic increment-and-read, which the limits
 * rely on (an attempt is counted before its secret is checked): the
 * database store is a single upsert with RETURNING on SQLite and
 * PostgreSQL, and INSERT ... ON DUPLICATE KEY UPDATE then SELECT in one
 * transaction (the row stays locked until COMMIT) on MySQL; Redis runs a
 * Lua script. tests/functional/faults/rate_limit_bursts.spec.ts proves it
 * with 100 parallel attempts and two processes.
 */
import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'
import type { InferLimiters } from '@adonisjs/limiter/types'
import { databaseLimiterStore } from '#services/auth/limiter_database_store'

const limiterConfig = defineConfig({
  default: env.get('LIMITER_STORE') ?? (env.get('REDIS_URL') ? 'redis' : 'database'),
  stores: {
    database: databaseLimiterStore({ tableName: 'rate_limits' }),
    redis: stores.redis({ connectionName: 'main', rejectIfRedisNotReady: false }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
