/**
 * The Redis client options of config/redis.ts against servers that are not
 * there (closed port) or do not answer (accepts, never replies): a command
 * fails fast, with an error #services/system/redis_outage recognises, so the
 * exception handler answers 503 instead of 500 or a hung request.
 */
import { test } from '@japa/runner'
import { createServer, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import redisConfig from '#config/redis'
import { freePort } from '#tests/helpers/test_database'
import { TestRedisServer, waitFor } from '#tests/helpers/redis_server'
import { isRedisUnavailable, redisOutageFor } from '#services/system/redis_outage'

/** A client with Tern's options pointed at `port`. */
function clientFor(port: number) {
  const { keyPrefix: ignoredPrefix, ...options } = redisConfig.connections.main as Record<
    string,
    any
  >
  return new Redis({ ...options, host: '127.0.0.1', port, lazyConnect: false })
}

/** The error a command rejects with, and how long that took. */
async function failure(client: Redis) {
  const started = Date.now()
  const error = await client.incr('tern:probe').then(
    () => null,
    (rejection: Error) => rejection
  )
  return { error, ms: Date.now() - started }
}

test.group('Redis outage | client options and error recognition', () => {
  test('nothing listening: the command fails at once and counts as an outage', async ({
    assert,
  }) => {
    const client = clientFor(await freePort())
    client.on('error', () => {})
    try {
      const { error, ms } = await failure(client)
      assert.isTrue(isRedisUnavailable(error), String(error))
      assert.isBelow(ms, 1000)
      const outage = redisOutageFor(error)!
      assert.equal(outage.status, 503)
      assert.equal(outage.responseBody.statusCode, 503)
      assert.isAbove(outage.retryAfter, 0)
    } finally {
      client.disconnect()
    }
  })

  test('a server that accepts but never answers the handshake: the command fails at once', async ({
    assert,
  }) => {
    const sockets: Socket[] = []
    const silent: Server = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const client = clientFor((silent.address() as { port: number }).port)
    client.on('error', () => {})
    try {
      const { error, ms } = await failure(client)
      assert.isTrue(isRedisUnavailable(error), String(error))
      assert.isBelow(ms, 1000)
    } finally {
      client.disconnect()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  test('a frozen server: a command fails after the command timeout, then the connection serves again', async ({
    assert,
  }) => {
    const server = await TestRedisServer.start()
    const client = clientFor(server.port)
    client.on('error', () => {})
    try {
      await waitFor(async () => client.status === 'ready', 5000, 'the client to connect')
      server.freeze(true)
      const { error, ms } = await failure(client)
      assert.equal(error?.message, 'Command timed out')
      assert.isTrue(isRedisUnavailable(error))
      assert.isBelow(ms, 4000)
      server.freeze(false)
      assert.equal(await client.incr('tern:probe:after'), 1)
    } finally {
      server.freeze(false)
      client.disconnect()
      await server.stop('SIGKILL')
    }
  }).timeout(15_000)

  test('other errors are not taken for an outage, wrapped ones are', ({ assert }) => {
    const database = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), {
      code: 'ECONNREFUSED',
    })
    assert.isFalse(isRedisUnavailable(database))
    assert.isFalse(isRedisUnavailable(new Error('ERR wrong number of arguments')))
    assert.isNull(redisOutageFor(new TypeError('x is undefined')))
    const wrapped = new Error('rate limit failed', { cause: new Error('Connection is closed.') })
    assert.isTrue(isRedisUnavailable(wrapped))
  })
})
