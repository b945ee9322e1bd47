import { test } from '@japa/runner'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

/** The names of the threads of process `pid` (Linux: /proc/<pid>/task/<tid>/comm). */
function threadNames(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
    } catch {
      return '' // the thread ended meanwhile
    }
  })
}

/** The JSON log lines of an output (other lines skipped). */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>]
      } catch {
        return []
      }
    })
}

test.group('Production logs', (group) => {
  let dataDir: string
  group.each.setup(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tern-logs-'))
    return () => rmSync(dataDir, { recursive: true, force: true })
  })

  test('JSON lines go to stdout from the main thread (no transport worker) and the last ones survive SIGTERM', async ({
    assert,
  }) => {
    const port = await freePort()
    const tern = startTern(
      ['bin/server.ts'],
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_CONNECTION: 'sqlite',
      },
      30_000
    )
    try {
      let status = 0
      for (let attempt = 0; attempt < 150 && status === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        status = await fetch(`http://127.0.0.1:${port}/api/health`)
          .then((response) => response.status)
          .catch(() => 0)
      }
      assert.notEqual(status, 0, tern.output())

      // A pino transport runs in a worker thread named "pino.transport": a second Node environment per process.
      const threads = threadNames(tern.pid)
      assert.notInclude(threads, 'pino.transport', threads.join(', '))

      // Requested right before the signal: its line is still written (the stream is flushed on exit).
      const marker = `/api/no-such-route-${Date.now()}`
      assert.equal((await fetch(`http://127.0.0.1:${port}${marker}`)).status, 404)
    } finally {
      await tern.stop()
    }
    const lines = jsonLines(tern.output())
    const health = lines.find(
      (line) => line.msg === 'request completed' && line.url === '/api/health'
    )
    assert.exists(health, tern.output())
    assert.equal(health!.name, 'tern')
    assert.isString(health!.request_id)
    assert.isTrue(
      lines.some(
        (line) =>
          line.msg === 'request completed' &&
          String(line.url).startsWith('/api/no-such-route-') &&
          line.status === 404
      ),
      tern.output()
    )
  }).timeout(60_000)
})
