/**
 * Probes: /api/health/live answers while the process
 * serves, /api/health/ready tries the database, Redis (when configured) and
 * the default storage for real and answers each check's state, 503 when one
 * fails. /api/health keeps Pingvin's "OK".
 */
import { test } from '@japa/runner'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { waitFor } from '#tests/helpers/redis_server'
import { startTernWithRedis, type TernWithRedis } from '#tests/helpers/tern_instances'

async function ready(base: string) {
  const response = await fetch(`${base}/api/health/ready`)
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as any,
  }
}

test.group('Health | probes in this process', () => {
  test('live answers 200 and ready lists every check as ok', async ({ client, assert }) => {
    const live = await client.get('/api/health/live')
    live.assertStatus(200)
    assert.deepEqual(live.body(), { status: 'ok' })

    const response = await client.get('/api/health/ready')
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'ok')
    assert.equal(body.checks.database.status, 'ok')
    assert.equal(body.checks.storage.status, 'ok')
    assert.equal(body.checks.redis.status, process.env.REDIS_URL ? 'ok' : 'skipped')

    const legacy = await client.get('/api/health')
    legacy.assertStatus(200)
    assert.equal(legacy.text(), 'OK')
  })

  test('ready answers 503 naming the storage while it cannot write, and 200 again once it can', async ({
    client,
    assert,
  }) => {
    const root = join(process.env.DATA_DIR!, 'uploads')
    const aside = `${root}.aside-${process.pid}`
    mkdirSync(root, { recursive: true })
    renameSync(root, aside)
    // A file where the directory was: every write below it fails, even as root.
    writeFileSync(root, 'not a directory')
    try {
      const response = await client.get('/api/health/ready')
      response.assertStatus(503)
      const body = response.body()
      assert.equal(body.statusCode, 503)
      assert.equal(body.error, 'Service Unavailable')
      assert.include(body.message, 'storage')
      assert.equal(body.checks.storage.status, 'failed')
      assert.equal(body.checks.database.status, 'ok')
      assert.notInclude(JSON.stringify(body), root, 'no server path in the answer')

      const live = await client.get('/api/health/live')
      live.assertStatus(200)
    } finally {
      rmSync(root, { force: true })
      renameSync(aside, root)
    }
    const recovered = await client.get('/api/health/ready')
    recovered.assertStatus(200)
  })
})

test.group('Health | readiness with Redis stopped', (group) => {
  let child: TernWithRedis
  group.each.setup(async () => (child = await startTernWithRedis('/api/health/ready')).stop)

  test('ready names Redis with 503 while live stays 200', async ({ assert }) => {
    const before = await ready(child.base)
    assert.equal(before.body.checks.redis.status, 'ok')

    await child.redis.stop('SIGKILL')
    await waitFor(
      () => ready(child.base).then((a) => a.status === 503),
      10_000,
      'ready to report Redis down'
    )
    const down = await ready(child.base)
    assert.equal(down.body.checks.redis.status, 'failed')
    assert.equal(down.body.checks.database.status, 'ok')
    assert.equal(down.body.checks.storage.status, 'ok')
    assert.include(down.body.message, 'redis')
    assert.isNotNull(down.retryAfter)
    assert.equal((await fetch(`${child.base}/api/health/live`)).status, 200)

    await child.redis.resume()
    await waitFor(
      () => ready(child.base).then((a) => a.status === 200),
      15_000,
      'ready again once Redis is back'
    )
  }).timeout(60_000)
})

test.group('Health | readiness with the database unreachable', (group) => {
  let tern: RunningTern | undefined
  group.each.teardown(async () => {
    await tern?.stop()
  })

  test('ready answers 503 naming the database while live stays 200', async ({ assert }) => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    // A MySQL port nothing listens on: the server starts, its database never answers.
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_CONNECTION: 'mysql',
      DB_HOST: '127.0.0.1',
      DB_PORT: String(await freePort()),
    }
    tern = startTern(['bin/server.ts'], env, 60_000)
    await waitFor(
      () =>
        fetch(`${base}/api/health/live`).then(
          (r) => r.status === 200,
          () => false
        ),
      40_000,
      'Tern to answer /api/health/live'
    ).catch((error) => {
      throw new Error(`${error.message}\n${tern!.output()}`)
    })
    const answer = await ready(base)
    assert.equal(answer.status, 503)
    assert.equal(answer.body.checks.database.status, 'failed')
    assert.equal(answer.body.checks.database.message, 'The database does not answer')
    assert.include(answer.body.message, 'database')
    assert.notInclude(JSON.stringify(answer.body), 'ECONNREFUSED', 'no driver internals')
    assert.equal((await fetch(`${base}/api/health`)).status, 503)
  }).timeout(60_000)
})
