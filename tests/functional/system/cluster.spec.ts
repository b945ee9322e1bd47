/**
 * The cluster of HTTP workers (start/cluster.ts): real processes.
 * `bin/server.ts` with TERN_WORKERS=2 on a fresh, migrated database of the
 * run's kind: both workers answer, a dead worker is replaced while the other
 * keeps serving, a settings change made through one worker is what every
 * worker answers next, concurrent writes through both workers all succeed
 * (SQLite: two writer processes on one file), /metrics counts the requests
 * of every worker, SIGTERM ends the whole tree with exit code 0, and workers
 * that cannot listen (port in use) make the primary give up with exit code 1.
 */
import http from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { startTern } from '#tests/helpers/spawn_tern'
import { waitFor } from '#tests/helpers/redis_server'
import { freePort } from '#tests/helpers/test_database'
import { serversOnFreshDatabase } from '#tests/helpers/tern_instances'
import { availableParallelism } from 'node:os'
import { parseWorkers } from '#start/cluster'

interface Answer {
  status: number
  text: string
  headers: http.IncomingHttpHeaders
}

/** One request on a connection of its own (no keep-alive: the cluster hands each new connection to the next worker). */
function request(
  url: string,
  options: {
    method?: string
    json?: unknown
    headers?: Record<string, string>
    timeoutMs?: number
  } = {}
) {
  return new Promise<Answer>((resolve, reject) => {
    const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json))
    const headers: Record<string, string | number> = { ...options.headers }
    if (body)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': body.length })
    const sent = http.request(
      url,
      { method: options.method ?? 'GET', agent: false, headers },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, text, headers: response.headers })
        )
      }
    )
    sent.on('error', reject)
    if (options.timeoutMs)
      sent.setTimeout(options.timeoutMs, () => sent.destroy(new Error('no answer in time')))
    sent.end(body)
  })
}

/** The HTTP workers of the cluster's primary `pid` (its child processes). */
function workersOf(pid: number): number[] {
  const children: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
      children.push(...listed.split(' ').filter(Boolean).map(Number))
    }
  } catch {}
  return children
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The pids of the processes that logged a completed request (pretty logs: "INFO (tern/<pid>): request completed"). */
const answeringPids = (output: string) =>
  new Set(
    [...output.matchAll(/\(tern\/(\d+)\): request completed/g)].map((match) => Number(match[1]))
  )

test.group('Cluster | TERN_WORKERS', () => {
  test('TERN_WORKERS is a whole number from 1 to 64; unset, the cores in production on MySQL/PostgreSQL, else 1', ({
    assert,
  }) => {
    assert.equal(parseWorkers('TERN_WORKERS', '3'), 3)
    assert.equal(parseWorkers('TERN_WORKERS', ' 1 '), 1)
    assert.equal(
      parseWorkers('TERN_WORKERS', undefined, { nodeEnv: 'development', dbConnection: undefined }),
      1
    )
    assert.equal(parseWorkers('TERN_WORKERS', '', { nodeEnv: 'test', dbConnection: undefined }), 1)
    assert.equal(
      parseWorkers('TERN_WORKERS', undefined, { nodeEnv: 'production', dbConnection: undefined }),
      1,
      'SQLite is the default database'
    )
    assert.equal(
      parseWorkers('TERN_WORKERS', undefined, { nodeEnv: 'production', dbConnection: 'sqlite' }),
      1
    )
    assert.equal(
      parseWorkers('TERN_WORKERS', undefined, { nodeEnv: 'development', dbConnection: 'mysql' }),
      1
    )
    for (const database of ['mysql', 'pg']) {
      const byDefault = parseWorkers('TERN_WORKERS', undefined, {
        nodeEnv: 'production',
        dbConnection: database,
      })
      assert.equal(byDefault, Math.min(availableParallelism(), 8))
    }
    for (const wrong of ['0', '65', 'two', '1.5', '-2']) {
      assert.throws(
        () => parseWorkers('TERN_WORKERS', wrong),
        /"TERN_WORKERS" must be a whole number of HTTP workers from 1 to 64/
      )
    }
  })
})

test.group('Cluster | two HTTP workers', (group) => {
  const servers = serversOnFreshDatabase(group, 'tern-cluster-')

  test('both workers answer; a dead worker is replaced; settings, concurrent writes and /metrics span the workers; SIGTERM ends the tree with 0', async ({
    assert,
  }) => {
    const { base, server } = await servers.serve({
      ...servers.fresh.env,
      TERN_WORKERS: '2',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: 'cluster-metrics-token',
    })
    // A connection the primary handed to a worker at the moment it was killed gets no answer (node:cluster): retried.
    const up = () =>
      request(`${base}/api/health`, { timeoutMs: 5_000 }).then(
        (answer) => answer.status === 200,
        () => false
      )
    await waitFor(up, 90_000, 'the cluster to answer /api/health').catch((error) => {
      throw new Error(`${error.message}\n${server.output()}`)
    })
    await waitFor(async () => workersOf(server.pid).length === 2, 60_000, 'two workers')
    const workers = workersOf(server.pid)

    // Each new connection goes to the next worker: both log requests they answered.
    await waitFor(
      async () => {
        await up()
        return workers.every((pid) => answeringPids(server.output()).has(pid))
      },
      60_000,
      'both workers to answer a request'
    ).catch((error) => {
      throw new Error(
        `${error.message}: workers ${workers}, answered by ${[...answeringPids(server.output())]}`
      )
    })

    // A settings change made through one worker is what every worker answers next (no per-process cache).
    const signUp = await request(`${base}/api/auth/signUp`, {
      method: 'POST',
      json: { email: 'admin@example.com', username: 'admin', password: 'password123' },
    })
    assert.equal(signUp.status, 201, signUp.text)
    const { accessToken } = JSON.parse(signUp.text) as { accessToken: string }
    const auth = { authorization: `Bearer ${accessToken}` }
    const patch = await request(`${base}/api/configs/admin`, {
      method: 'PATCH',
      headers: auth,
      json: [{ key: 'general.appName', value: 'Clustered Tern' }],
    })
    assert.equal(patch.status, 200, patch.text)
    for (let index = 0; index < 6; index++) {
      const configs = JSON.parse((await request(`${base}/api/configs`)).text) as {
        key: string
        value: string
      }[]
      assert.equal(
        configs.find((entry) => entry.key === 'general.appName')?.value,
        'Clustered Tern'
      )
    }

    // Concurrent writes through both workers (SQLite: two writer processes on one file) all succeed.
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        request(`${base}/api/shares`, {
          method: 'POST',
          headers: auth,
          json: { id: `cluster-${index}`, expiration: 'never' },
        })
      )
    )
    assert.deepEqual(
      created.map((answer) => answer.status),
      Array(40).fill(201),
      created.find((answer) => answer.status !== 201)?.text
    )
    const [{ count }] = await db
      .connection(servers.fresh.connect())
      .from('shares')
      .count('* as count')
    assert.equal(Number(count), 40)

    // /metrics reports the instance: the requests of both workers, whichever answers the scrape.
    const scrape = () =>
      request(`${base}/metrics`, {
        headers: { authorization: 'Bearer cluster-metrics-token' },
      }).then((answer) => {
        assert.equal(answer.status, 200, answer.text)
        return answer.text
      })
    const configsServed = (text: string) =>
      Number(
        /tern_http_requests_total\{method="GET",route="\/api\/configs",status="200"\} (\d+)/.exec(
          text
        )?.[1]
      )
    assert.equal(configsServed(await scrape()), 6)
    assert.equal(configsServed(await scrape()), 6)

    // A worker that dies is replaced; the other serves meanwhile.
    process.kill(workers[0], 'SIGKILL')
    await waitFor(up, 10_000, 'the other worker to answer meanwhile')
    await waitFor(
      async () => {
        const now = workersOf(server.pid)
        return now.length === 2 && !now.includes(workers[0])
      },
      60_000,
      'a replacement worker'
    )
    const replacement = workersOf(server.pid).find((pid) => pid !== workers[1])!
    await waitFor(
      async () => {
        await up()
        return answeringPids(server.output()).has(replacement)
      },
      60_000,
      'the replacement worker to answer'
    )
    assert.match(
      server.output(),
      /HTTP worker \d+ \(pid \d+\) exited with signal SIGKILL; starting another/
    )

    // SIGTERM: every worker finishes and the primary exits with 0.
    const last = workersOf(server.pid)
    const { code } = await server.stop()
    assert.equal(code, 0, server.output())
    assert.isFalse(last.some(alive), `workers left running: ${last.filter(alive)}`)
  }).timeout(240_000)

  test('on SIGTERM a worker finishes the upload it is receiving, then the tree exits with 0', async ({
    assert,
  }) => {
    const { base, server } = await servers.serve({ ...servers.fresh.env, TERN_WORKERS: '2' })
    const up = () =>
      request(`${base}/api/health`, { timeoutMs: 5_000 }).then(
        (answer) => answer.status === 200,
        () => false
      )
    await waitFor(up, 90_000, 'the cluster to answer /api/health').catch((error) => {
      throw new Error(`${error.message}\n${server.output()}`)
    })
    const signUp = await request(`${base}/api/auth/signUp`, {
      method: 'POST',
      json: { email: 'admin@example.com', username: 'admin', password: 'password123' },
    })
    assert.equal(signUp.status, 201, signUp.text)
    const auth = {
      authorization: `Bearer ${(JSON.parse(signUp.text) as { accessToken: string }).accessToken}`,
    }
    const share = await request(`${base}/api/shares`, {
      method: 'POST',
      headers: auth,
      json: { id: 'in-flight', expiration: 'never' },
    })
    assert.equal(share.status, 201, share.text)

    // A chunk whose first half is sent before SIGTERM and the second half after it.
    const body = Buffer.alloc(2_000_000, 7)
    const query = new URLSearchParams({ name: 'a.bin', chunkIndex: '0', totalChunks: '1' })
    let answered = false
    const upload = new Promise<Answer>((resolve, reject) => {
      const sent = http.request(`${base}/api/shares/in-flight/files?${query}`, {
        method: 'POST',
        agent: false,
        headers: {
          ...auth,
          'content-type': 'application/octet-stream',
          'content-length': body.length,
        },
      })
      sent.on('response', (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => {
          answered = true
          resolve({ status: response.statusCode!, text, headers: response.headers })
        })
      })
      sent.on('error', reject)
      sent.write(body.subarray(0, 1_000_000), () => {
        // The worker has the request (its headers and half the body) before the signal.
        setTimeout(() => {
          process.kill(server.pid, 'SIGTERM')
          setTimeout(() => sent.end(body.subarray(1_000_000)), 500)
        }, 1_000)
      })
    })
    const answer = await upload
    assert.equal(answer.status, 201, answer.text)
    const { code } = await server.exited
    assert.isTrue(answered)
    assert.equal(code, 0, server.output())
  }).timeout(180_000)

  test('workers that cannot listen (port in use) make the primary stop with exit code 1', async ({
    assert,
  }) => {
    const port = await freePort()
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve))
    try {
      const server = startTern(
        ['bin/server.ts'],
        { ...servers.fresh.env, TERN_WORKERS: '2', PORT: String(port), HOST: '127.0.0.1' },
        120_000
      )
      const { code, output } = await server.exited
      assert.equal(code, 1, output)
      assert.include(output, 'EADDRINUSE')
      // Said once, by the primary, for both workers.
      assert.lengthOf(
        output.match(/^Tern cannot start: 127\.0\.0\.1:\d+ is already in use \(EADDRINUSE\)/gm) ??
          [],
        1,
        output
      )
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  }).timeout(180_000)

  test('a wrong TERN_WORKERS stops the start with exit code 1 and names the variable', async ({
    assert,
  }) => {
    const server = startTern(
      ['bin/server.ts'],
      { ...servers.fresh.env, TERN_WORKERS: 'many' },
      60_000
    )
    const { code, output } = await server.exited
    assert.equal(code, 1, output)
    assert.include(
      output,
      'Value for environment variable "TERN_WORKERS" must be a whole number of HTTP workers from 1 to 64'
    )
  }).timeout(90_000)
})
