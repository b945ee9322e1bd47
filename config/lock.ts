import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/lock'
import type { InferLockStores } from '@adonisjs/lock/types'

/**
 * Locks of the scheduled jobs (one instance runs each job): kept in the
 * database (table `locks`), or in Redis when REDIS_URL is set (through
 * the `main` connection of config/redis.ts, which connects lazily while
 * Redis is not configured).
 */
const lockConfig = defineConfig({
  default: env.get('REDIS_URL') ? 'redis' : 'database',
  stores: {
    database: stores.database({ tableName: 'locks' }),
    memory: stores.memory(),
    redis: stores.redis({}),
  },
})

export default lockConfig

declare module '@adonisjs/lock/types' {
  export interface LockStoresList extends InferLockStores<typeof lockConfig> {}
}
