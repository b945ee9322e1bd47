/**
 * Fault suite: local storage behind several instances (issue 11, item 9).
 * An instance whose storage root is not the one the database's files live
 * in refuses to start, saying what to do; a single instance and its restarts
 * are not affected. With SQLite, the second instance reaches the same
 * database through a symbolic link (as a network filesystem would).
 */
import { test } from '@japa/runner'
import { execSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnTern, startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { becomesHealthy, freshDatabase, type FreshDatabase } from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'

const ID_FILE = '.tern-storage-id'

test.group('Faults | local storage not shared by the instances', (group) => {
  group.teardown(cleanCommittedData)
  let fresh: FreshDatabase
  let servers: RunningTern[] = []
  let otherDir: string

  /** Starts a server with `env` on a free port. */
  async function serve(env: Record<string, string>) {
    const port = await freePort()
    const server = startTern(['bin/server.ts'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, 90_000)
    servers.push(server)
    return { base: `http://127.0.0.1:${port}`, server, migration: { code: 0, output: '' } }
  }

  group.each.setup(async () => {
    fresh = await freshDatabase()
    otherDir = mkdtempSync(join(tmpdir(), 'tern-other-root-'))
    const migration = await spawnTern(['ace.js', 'tern:migrate'], fresh.env, 120_000)
    if (migration.code !== 0) throw new Error(migration.output)
    return async () => {
      await Promise.all(servers.map((server) => server.stop()))
      servers = []
      rmSync(otherDir, { recursive: true, force: true })
      await fresh.drop()
    }
  })

  test('a second instance with its own DATA_DIR refuses to start and says what to do', async ({
    assert,
  }) => {
    const first = await serve(fresh.env)
    assert.isTrue(await becomesHealthy(first), first.server.output())

    const secondEnv = { ...fresh.env, DATA_DIR: otherDir }
    if (fresh.env.DB_CONNECTION === 'sqlite') {
      symlinkSync(join(fresh.env.DATA_DIR, 'tern.sqlite'), join(otherDir, 'tern.sqlite'))
    }
    const second = await serve(secondEnv)
    const refused = await second.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'Tern cannot start')
    assert.include(refused.output, 'shared volume')
    assert.include(refused.output, 'S3')
    const id = readFileSync(join(fresh.env.DATA_DIR, 'uploads', ID_FILE), 'utf8').trim()
    assert.include(refused.output, id, 'the message names the id the storage must carry')

    // The first instance is unaffected, and restarts.
    assert.equal((await fetch(`${first.base}/api/health`)).status, 200)
    await first.server.stop()
    const restarted = await serve(fresh.env)
    assert.isTrue(await becomesHealthy(restarted), restarted.server.output())
  }).timeout(120_000)

  test('a storage root restored from another installation is refused until the fix in the message is applied', async ({
    assert,
  }) => {
    const first = await serve(fresh.env)
    assert.isTrue(await becomesHealthy(first), first.server.output())
    await first.server.stop()

    const idFile = join(fresh.env.DATA_DIR, 'uploads', ID_FILE)
    writeFileSync(idFile, randomUUID() + '\n')
    const foreign = await serve(fresh.env)
    const refused = await foreign.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'different backups')

    // The message ends with the command that makes this directory the database's storage.
    const fix = refused.output.match(/echo [0-9a-f-]{36} > \S+/)
    assert.exists(fix, refused.output)
    execSync(fix![0])
    const fixed = await serve(fresh.env)
    assert.isTrue(await becomesHealthy(fixed), fixed.server.output())
  }).timeout(120_000)
})
