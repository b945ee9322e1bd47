/**
 * Redis (optional): used for rate-limit counters and locks when `REDIS_URL`
 * is set, e.g. `redis://:password@host:6379/0` or `rediss://...` for TLS.
 * Nothing connects to Redis while it is not used.
 *
 * Outages: the client reconnects forever (back-off up to 2 s), and while it
 * is not connected a command fails at once instead of waiting in a queue (a
 * queued rate-limit increment or lock would otherwise run later, after its
 * request was answered). The exception handler answers those failures 503
 * with Retry-After (#services/system/redis_outage); start/redis.ts connects
 * at start and logs the outage and the recovery.
 */
import env from '#start/env'
import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'

/** The connection options of a `redis://` / `rediss://` URL. */
function fromUrl(value: string | undefined) {
  if (!value) return { host: '127.0.0.1', port: 6379, lazyConnect: true }
  const url = new URL(value)
  const db = Number(url.pathname.replace(/^\//, '') || 0)
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  }
}

const redisConfig = defineConfig({
  connection: 'main',
  connections: {
    main: {
      ...fromUrl(env.get('REDIS_URL')),
      keyPrefix: 'tern:',
      /** 100, 200, 400, 800, 1600 ms, then every 2 s, never giving up. */
      retryStrategy(times: number) {
        return Math.min(50 * 2 ** Math.min(times, 6), 2000)
      },
      enableOfflineQueue: false,
      /** Commands in flight when the connection drops fail at once (not resent later). */
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      /** A server that accepts but does not answer (paused, partitioned) counts as away. */
      connectTimeout: 2000,
      commandTimeout: 2000,
    },
  },
})

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
