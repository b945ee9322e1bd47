/*
|--------------------------------------------------------------------------
| Redis connection (only when Redis is used, see redisInUse)
|--------------------------------------------------------------------------
|
| Connects at start, so the first request that needs Redis finds it ready
| (the client has no offline queue, see config/redis.ts). Logs an outage once
| when it begins and once when Redis is back, instead of one error per
| reconnect attempt. Shuts down cleanly while Redis is away.
|
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { redisInUse } from '#services/system/redis_outage'

if (redisInUse()) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  redis.doNotLogErrors()
  const connection = redis.connection()
  // Lazy (no REDIS_URL, LIMITER_STORE=redis): dial now, a command would be refused while connecting.
  if (connection.status === 'wait') connection.ioConnection.connect().catch(() => {})
  let down = false

  // 'reconnecting' follows every lost or failed connection (with or without an error event).
  connection.on('reconnecting', () => {
    if (down) return
    down = true
    logger.error(
      { err: connection.lastError ?? undefined },
      'Redis unreachable: reconnecting; routes that need it answer 503 until it is back'
    )
  })
  connection.on('ready', () => {
    if (!down) return
    down = false
    logger.info('Redis reachable again')
  })

  // Without an offline queue ioredis refuses the QUIT of the shutdown while disconnected (an
  // unhandled rejection at exit); with it, a QUIT on an empty queue just closes the client.
  app.terminating(() => {
    if (connection.status !== 'ready') connection.ioConnection.options.enableOfflineQueue = true
  })
}
