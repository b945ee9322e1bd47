/**
 * Redis (optional): used for rate-limit counters (and later locks) when
 * `REDIS_URL` is set, e.g. `redis://:password@host:6379/0` or `rediss://...`
 * for TLS. Nothing connects to Redis while it is not used.
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
      retryStrategy(times: number) {
        return times > 10 ? null : times * 50
      },
    },
  },
})

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
