import { test } from '@japa/runner'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnTern, startTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

/** The lines of a process's output that are not JSON log lines (what a person reads). */
const plainLines = (output: string) =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('{'))

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

test.group('Startup | bad environment values stop the start', (group) => {
  let dataDir: string
  group.each.setup(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tern-startup-'))
    return () => rmSync(dataDir, { recursive: true, force: true })
  })

  for (const [name, value, expected] of [
    ['PORT', 'not-a-port', '"PORT"'],
    ['DB_CONNECTION', 'oracle', '"DB_CONNECTION"'],
    ['LOG_LEVEL', 'loud', '"LOG_LEVEL"'],
    ['DB_PORT', 'abc', '"DB_PORT"'],
    ['REDIS_URL', 'http://127.0.0.1:6379', '"REDIS_URL"'],
    ['HSTS_MAX_AGE', '1 year', '"HSTS_MAX_AGE"'],
    ['TERN_PLUGINS', 'no-such-plugin', '"no-such-plugin"'],
  ] as const) {
    test(`a bad ${name} stops the server with a message naming it`, async ({ assert }) => {
      const result = await spawnTern(['bin/server.ts'], { DATA_DIR: dataDir, [name]: value })
      assert.notEqual(result.code, 0)
      assert.notEqual(result.code, null, 'the server must stop, not keep running')
      assert.include(result.output, expected)
      const lines = plainLines(result.output)
      assert.lengthOf(lines, 1, `one line says what is wrong:\n${result.output}`)
      assert.match(lines[0], /^Tern cannot start: /)
    }).timeout(30_000)
  }

  test('a good environment serves /api/health on PORT until stopped', async ({ assert }) => {
    const port = await freePort()
    const tern = startTern(
      ['bin/server.ts'],
      { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DB_CONNECTION: 'sqlite' },
      30_000
    )
    try {
      let status = 0
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        status = await fetch(`http://127.0.0.1:${port}/api/health`)
          .then((response) => response.status)
          .catch(() => 0)
      }
      assert.equal(status, 200, tern.output())
    } finally {
      await tern.stop()
    }
  }).timeout(40_000)
})

test.group('Startup | a start that fails stops at once', (group) => {
  let dataDir: string
  group.each.setup(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tern-startup-'))
    return () => rmSync(dataDir, { recursive: true, force: true })
  })

  for (const workers of ['1', '2']) {
    test(`TERN_WORKERS=${workers}: a port in use ends the start within a second, exit code 1, one line`, async ({
      assert,
    }) => {
      const port = await freePort()
      const taken = createServer()
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve))
      const tern = startTern(
        ['bin/server.ts'],
        // A database of its own (SQLite in DATA_DIR): the run's database already names another storage.
        {
          DATA_DIR: dataDir,
          DB_CONNECTION: 'sqlite',
          NODE_ENV: 'production',
          TERN_WORKERS: workers,
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        60_000
      )
      try {
        // The failure appears when EADDRINUSE is first written; from then on the process has a second.
        let exitedAt = 0
        void tern.exited.then(() => (exitedAt = Date.now()))
        while (!tern.output().includes('EADDRINUSE') && !exitedAt)
          await new Promise((r) => setTimeout(r, 10))
        const seenAt = Date.now()
        const stopped = await Promise.race([
          tern.exited,
          new Promise((r) => setTimeout(r, 5_000, null)),
        ])
        assert.isNotNull(stopped, `still running 5 s after the failure:\n${tern.output()}`)
        const { code, output } = await tern.exited
        console.log(
          `startup: TERN_WORKERS=${workers}, port in use: exit ${code} ${exitedAt - seenAt} ms after the failure appeared`
        )
        assert.equal(code, 1, output)
        assert.isBelow(exitedAt - seenAt, 1_000, output)
        assert.deepEqual(plainLines(output), [
          `Tern cannot start: 127.0.0.1:${port} is already in use (EADDRINUSE): stop the program listening there, or set PORT to a free port`,
        ])
      } finally {
        await tern.kill()
        await new Promise((resolve) => taken.close(resolve))
      }
    }).timeout(70_000)
  }

  test('migrations against a database that does not answer stop with exit code 1 and one line', async ({
    assert,
  }) => {
    const closedPort = await freePort()
    const result = await spawnTern(
      ['ace.js', 'tern:migrate'],
      {
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        DB_CONNECTION: 'mysql',
        DB_HOST: '127.0.0.1',
        DB_PORT: String(closedPort),
      },
      30_000
    )
    assert.equal(result.code, 1, result.output)
    assert.deepEqual(plainLines(result.output), [
      `[ error ] the migrations were not applied: cannot connect to 127.0.0.1:${closedPort} (ECONNREFUSED)`,
    ])
  }).timeout(40_000)
})

test.group('Startup | health without a database', (group) => {
  let dataDir: string
  group.each.setup(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tern-startup-'))
    return () => rmSync(dataDir, { recursive: true, force: true })
  })

  test('GET /api/health answers 503 when the database does not answer', async ({ assert }) => {
    const port = await freePort()
    const closedPort = await freePort()
    const tern = startTern(
      ['bin/server.ts'],
      {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_CONNECTION: 'mysql',
        DB_HOST: '127.0.0.1',
        DB_PORT: String(closedPort),
      },
      30_000
    )
    try {
      let response: Response | undefined
      for (let attempt = 0; attempt < 100 && !response; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined)
      }
      assert.exists(response, tern.output())
      assert.equal(response!.status, 503)
      const body = (await response!.json()) as { statusCode: number }
      assert.equal(body.statusCode, 503)
      assert.notInclude(JSON.stringify(body), String(closedPort), 'no connection detail leaks')
    } finally {
      await tern.stop()
    }
  }).timeout(40_000)
})

test.group('Startup | Node.js version', () => {
  /**
   * The machines this runs on ship an older system Node (/usr/bin/node); the
   * project's own Node 24 is node_modules/.bin/node.
   */
  const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
    const found = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' })
    return found.status === 0 && Number(found.stdout.split('.')[0]) < 24
  })

  test('ace started by an older Node re-runs itself on the project Node 24', ({ assert }) => {
    assert.exists(systemNode, 'an older system Node is expected on this machine')
    const result = spawnSync(systemNode!, ['ace', 'list'], { cwd: ROOT, encoding: 'utf8' })
    assert.equal(result.status, 0, result.stderr)
    assert.include(result.stdout, 'migration:run')
  }).timeout(30_000)

  test('without the project Node 24 it stops with a one-line explanation', ({ assert }) => {
    assert.exists(systemNode, 'an older system Node is expected on this machine')
    const result = spawnSync(systemNode!, ['ace', 'list'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, TERN_NODE_REEXEC: '1' },
    })
    assert.equal(result.status, 1)
    assert.equal(result.stderr.trim().split('\n').length, 1)
    assert.match(result.stderr, /needs Node\.js 24/)
  }).timeout(30_000)
})
