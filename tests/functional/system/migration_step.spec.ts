/**
 * Migrations as an operator step: with MIGRATE_ON_START=false
 * instances serve without touching the schema and stay not-ready until
 * `node ace tern:migrate` (which any number of instances may run at once) has
 * applied every migration; then they are ready without a restart.
 */
import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { spawnTern, startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { waitFor } from '#tests/helpers/redis_server'
import { freshDatabase, type FreshDatabase } from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { migrateOnStart } from '../../../scripts/start_options.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

async function probe(base: string, path: string) {
  const response = await fetch(base + path).catch(() => null)
  return response ? { status: response.status, body: (await response.json()) as any } : null
}

test.group('Migrations | a separate step', (group) => {
  group.teardown(cleanCommittedData)
  let fresh: FreshDatabase
  let server: RunningTern | undefined

  group.each.setup(async () => {
    fresh = await freshDatabase()
    return async () => {
      await server?.stop()
      server = undefined
      await fresh.drop()
    }
  })

  test('an unmigrated instance is live but not ready until two concurrent tern:migrate runs finish', async ({
    assert,
  }) => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    server = startTern(
      ['bin/server.ts'],
      { ...fresh.env, PORT: String(port), HOST: '127.0.0.1' },
      120_000
    )
    await waitFor(
      async () => (await probe(base, '/api/health/live'))?.status === 200,
      60_000,
      'the unmigrated server to answer /api/health/live'
    ).catch((error) => {
      throw new Error(`${error.message}\n${server!.output()}`)
    })
    const before = await probe(base, '/api/health/ready')
    assert.equal(before?.status, 503, JSON.stringify(before?.body))
    assert.equal(before!.body.checks.migrations.status, 'failed')
    assert.include(before!.body.checks.migrations.message, 'tern:migrate')
    assert.equal(before!.body.checks.database.status, 'ok')

    const runs = await Promise.all([
      spawnTern(['ace.js', 'tern:migrate'], fresh.env, 120_000),
      spawnTern(['ace.js', 'tern:migrate'], fresh.env, 120_000),
    ])
    for (const run of runs) assert.equal(run.code, 0, run.output)

    const after = await probe(base, '/api/health/ready')
    assert.equal(after?.status, 200, JSON.stringify(after?.body) + server.output())
    assert.equal(after!.body.checks.migrations.status, 'ok')
    assert.equal(
      (await probe(base, '/api/configs'))?.status,
      200,
      'the API serves without a restart'
    )
  }).timeout(150_000)
})

test.group('Migrations | MIGRATE_ON_START', () => {
  test('true, 1 and unset migrate; false and 0 skip', ({ assert }) => {
    for (const value of [undefined, '', 'true', 'TRUE', '1']) {
      assert.isTrue(migrateOnStart({ MIGRATE_ON_START: value }), String(value))
    }
    for (const value of ['false', 'False', '0'])
      assert.isFalse(migrateOnStart({ MIGRATE_ON_START: value }))
  })

  test('npm start refuses any other value before building, naming the variable', async ({
    assert,
  }) => {
    const child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: ROOT,
      env: { ...process.env, MIGRATE_ON_START: 'sometimes', DATA_DIR: unusedDataDir() },
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    assert.equal(code, 1, output)
    assert.include(output, 'MIGRATE_ON_START')
    assert.include(output, 'sometimes')
    assert.notInclude(output, 'building')
  }).timeout(20_000)
})

/** A DATA_DIR nobody uses (the refused start must not create or touch the run's). */
function unusedDataDir() {
  return `${ROOT}tmp/never-used-${process.pid}`
}
