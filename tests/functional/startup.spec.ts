import { test } from '@japa/runner'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnTern, startTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

test.group('Startup | bad environment values stop the start', (group) => {
  let dataDir: string
  group.each.setup(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tern-startup-'))
    return () => rmSync(dataDir, { recursive: true, force: true })
  })

  for (const [name, value] of [
    ['PORT', 'not-a-port'],
    ['DB_CONNECTION', 'oracle'],
    ['LOG_LEVEL', 'loud'],
    ['DB_PORT', 'abc'],
  ] as const) {
    test(`a bad ${name} stops the server with a message naming it`, async ({ assert }) => {
      const result = await spawnTern(['bin/server.ts'], { DATA_DIR: dataDir, [name]: value })
      assert.notEqual(result.code, 0)
      assert.notEqual(result.code, null, 'the server must stop, not keep running')
      assert.include(result.output, `"${name}"`)
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
