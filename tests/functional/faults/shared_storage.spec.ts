/**
 * Fault suite: local storage behind several instances.
 * An instance whose storage root is not the one the database's files live
 * in refuses to start, saying what to do; a single instance and its restarts
 * are not affected. With SQLite, the second instance reaches the same
 * database through a symbolic link (as a network filesystem would).
 */
import { test } from '@japa/runner'
import { execSync } from 'node:child_process'
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { becomesHealthy, serversOnFreshDatabase } from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'

const ID_FILE = '.tern-storage-id'

test.group('Faults | local storage not shared by the instances', (group) => {
  group.teardown(cleanCommittedData)
  const instances = serversOnFreshDatabase(group, 'tern-other-root-')

  test('a second instance with its own DATA_DIR refuses to start and says what to do', async ({
    assert,
  }) => {
    const first = await instances.serve(instances.fresh.env)
    assert.isTrue(await becomesHealthy(first), first.server.output())

    const secondEnv = { ...instances.fresh.env, DATA_DIR: instances.otherDir }
    if (instances.fresh.env.DB_CONNECTION === 'sqlite') {
      symlinkSync(
        join(instances.fresh.env.DATA_DIR, 'tern.sqlite'),
        join(instances.otherDir, 'tern.sqlite')
      )
    }
    const second = await instances.serve(secondEnv)
    const refused = await second.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'Tern cannot start')
    assert.include(refused.output, 'shared volume')
    assert.include(refused.output, 'S3')
    const id = readFileSync(join(instances.fresh.env.DATA_DIR, 'uploads', ID_FILE), 'utf8').trim()
    assert.include(refused.output, id, 'the message names the id the storage must carry')

    // The first instance is unaffected, and restarts.
    assert.equal((await fetch(`${first.base}/api/health`)).status, 200)
    await first.server.stop()
    const restarted = await instances.serve(instances.fresh.env)
    assert.isTrue(await becomesHealthy(restarted), restarted.server.output())
  }).timeout(120_000)

  test('a storage root restored from another installation is refused until the fix in the message is applied', async ({
    assert,
  }) => {
    const first = await instances.serve(instances.fresh.env)
    assert.isTrue(await becomesHealthy(first), first.server.output())
    await first.server.stop()

    const idFile = join(instances.fresh.env.DATA_DIR, 'uploads', ID_FILE)
    writeFileSync(idFile, randomUUID() + '\n')
    const foreign = await instances.serve(instances.fresh.env)
    const refused = await foreign.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'different backups')

    // The message ends with the command that makes this directory the database's storage.
    const fix = refused.output.match(/echo [0-9a-f-]{36} > \S+/)
    assert.exists(fix, refused.output)
    execSync(fix![0])
    const fixed = await instances.serve(instances.fresh.env)
    assert.isTrue(await becomesHealthy(fixed), fixed.server.output())
  }).timeout(120_000)
})
