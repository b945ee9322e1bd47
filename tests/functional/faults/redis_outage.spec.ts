/**
 * Fault suite: Redis stopped and restarted under a running Tern.
 * A real Tern child shares this run's database and uses its own
 * redis-server; while Redis is away the routes that need it answer 503 with
 * Retry-After (never 500) and /api/health names Redis; once Redis is back the
 * same process serves sign-in again without a restart.
 */
import { test } from '@japa/runner'
import { waitFor } from '#tests/helpers/redis_server'
import { startTernWithRedis, type TernWithRedis } from '#tests/helpers/tern_instances'
import { createUser } from '#tests/helpers/auth'
import User from '#models/user'
import { cleanCommittedData } from '#tests/helpers/clean_database'

/** How long Redis stays away: longer than the old client's whole retry budget (2.75 s). */
const OUTAGE_MS = 3500

interface Answer {
  status: number
  retryAfter: string | null
  body: string
}

async function call(base: string, path: string, body?: object): Promise<Answer> {
  const response = await fetch(base + path, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  })
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  }
}

test.group('Faults | Redis stopped and restarted', (group) => {
  group.teardown(cleanCommittedData)
  let child: TernWithRedis
  group.each.setup(
    async () => (child = await startTernWithRedis('/api/health', { LOG_LEVEL: 'info' })).stop
  )

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    test(`Redis stopped (${signal}): 503 with Retry-After, then sign-in again without restart`, async ({
      assert,
    }) => {
      const user = await createUser()
      const good = { email: user.email, password: 'password123' }
      const wrong = { email: user.email, password: 'wrong-password' }
      const before = await call(child.base, '/api/auth/signIn', good)
      assert.equal(before.status, 200, before.body + child.tern.output())

      await child.redis.stop(signal)
      const stoppedAt = Date.now()
      await waitFor(
        () => call(child.base, '/api/health').then((a) => a.status === 503),
        10_000,
        'health to report Redis down'
      )
      const health = await call(child.base, '/api/health')
      assert.equal(health.status, 503)
      assert.include(health.body, 'Redis')

      // Requests that need Redis, for longer than the old client kept retrying (2.75 s).
      const during: Answer[] = []
      for (let attempt = 0; Date.now() - stoppedAt < OUTAGE_MS; attempt++) {
        const signUp = {
          email: `x${attempt}@example.com`,
          username: `x${attempt}x`,
          password: 'password123',
        }
        during.push(await call(child.base, '/api/auth/signIn', attempt % 2 ? wrong : good))
        during.push(await call(child.base, '/api/auth/signUp', signUp))
      }
      for (const answer of during) {
        assert.equal(answer.status, 503, answer.body)
        assert.isAbove(Number(answer.retryAfter), 0)
        const body = JSON.parse(answer.body)
        assert.equal(body.statusCode, 503)
        assert.match(body.message, /temporarily unavailable.*Redis/)
      }
      assert.notMatch(child.tern.output(), /status: 5(?!03)/, 'no other 5xx was answered')
      assert.isAbove(during.length, 10)
      // Nothing was done behind a 503: no account was created.
      assert.lengthOf(await User.query().where('email', 'like', 'x%@example.com'), 0)
      if (process.env.FAULT_FIGURES)
        console.log(`redis outage ${signal}: ${during.length} requests, all 503`)

      await child.redis.resume()
      await waitFor(
        () => call(child.base, '/api/health').then((a) => a.status === 200),
        10_000,
        'health to report Redis back'
      )
      assert.equal(
        (await call(child.base, '/api/auth/signIn', good)).status,
        200,
        child.tern.output()
      )
      assert.equal((await call(child.base, '/api/auth/signIn', wrong)).status, 401)
      // The outage is logged once (not once per reconnect attempt), then the recovery;
      // logs go through a worker thread, so wait for the line written last.
      await waitFor(
        async () => child.tern.output().includes('Redis reachable again'),
        10_000,
        'the recovery log'
      )
      assert.lengthOf(child.tern.output().match(/Redis unreachable: reconnecting/g) ?? [], 1)

      // A server stopped while Redis is away shuts down cleanly (QUIT must not crash it).
      await child.redis.stop(signal)
      await waitFor(
        () => call(child.base, '/api/health').then((a) => a.status === 503),
        10_000,
        'Redis down again'
      )
      const stopped = await child.tern.stop()
      assert.equal(stopped.code, 0, stopped.output)
    }).timeout(90_000)
  }
})
