/*
|--------------------------------------------------------------------------
| Redis connection (only when REDIS_URL is set)
|--------------------------------------------------------------------------
|
| Connects at start, so the first request that needs Redis finds it ready
| (the client has no offline queue, see config/redis.ts). Logs an outage once
| when it begins and once when Redis is back, instead of one error per
| reconnect attempt. At shutdown a connection that is not up is dropped
| (QUIT would be refused without an offline queue).
|
*/
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'

if (env.get('REDIS_URL')) {
  const { default: redis } = await import('@adonisjs/redis/services/main')
  redis.doNotLogErrors()
  const connection = redis.connection()
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

  app.terminating(() => {
    if (connection.status !== 'ready') connection.ioConnection.disconnect()
  })
}
