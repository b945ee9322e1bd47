/**
 * One APP_KEY for all instances of a database: the first
 * server records a fingerprint of its key; a server with another key (set in
 * the environment, or generated into a DATA_DIR of its own) refuses to start,
 * saying why and what to do; with the same key it starts. With SQLite the
 * second instance reaches the database through a symbolic link, and shares
 * the storage the same way, so only the key differs.
 */
import { test } from '@japa/runner'
import { copyFileSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import { becomesHealthy, serversOnFreshDatabase } from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { APP_KEY_FINGERPRINT_NAME, appKeyFingerprint } from '#services/system/app_key_fingerprint'

const KEY_A = 'a'.repeat(32)
const KEY_B = 'b'.repeat(32)

test.group('Instances | one APP_KEY for all', (group) => {
  group.teardown(cleanCommittedData)
  const instances = serversOnFreshDatabase(group, 'tern-other-key-')

  test('another APP_KEY is refused with why and what to do; the same key starts', async ({
    assert,
  }) => {
    const first = await instances.serve({ ...instances.fresh.env, APP_KEY: KEY_A })
    assert.isTrue(await becomesHealthy(first), first.server.output())

    const other = await instances.serve({ ...instances.fresh.env, APP_KEY: KEY_B })
    const refused = await other.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'Tern cannot start: E_APP_KEY_MISMATCH')
    assert.include(refused.output, 'must share APP_KEY')
    assert.include(refused.output, 'DATA_DIR/app_key')
    assert.notInclude(refused.output, KEY_A)
    assert.notInclude(refused.output, KEY_B)

    // Only a fingerprint is stored, never the key.
    const name = instances.fresh.connect()
    const row = await db
      .connection(name)
      .from('instance_secrets')
      .where('name', APP_KEY_FINGERPRINT_NAME)
      .first()
    assert.equal(row.value, appKeyFingerprint(KEY_A))
    assert.notInclude(String(row.value), KEY_A)

    const same = await instances.serve({ ...instances.fresh.env, APP_KEY: KEY_A })
    assert.isTrue(await becomesHealthy(same), same.server.output())
  }).timeout(120_000)

  test('a key generated into another DATA_DIR is refused until DATA_DIR/app_key is copied', async ({
    assert,
  }) => {
    const first = await instances.serve({ ...instances.fresh.env, APP_KEY: undefined })
    assert.isTrue(await becomesHealthy(first), first.server.output())

    // Same database and same storage (as a shared volume would give), own DATA_DIR otherwise.
    if (instances.fresh.env.DB_CONNECTION === 'sqlite') {
      symlinkSync(
        join(instances.fresh.env.DATA_DIR, 'tern.sqlite'),
        join(instances.otherDir, 'tern.sqlite')
      )
    }
    symlinkSync(join(instances.fresh.env.DATA_DIR, 'uploads'), join(instances.otherDir, 'uploads'))
    const secondEnv = { ...instances.fresh.env, DATA_DIR: instances.otherDir, APP_KEY: undefined }
    const refused = await (await instances.serve(secondEnv)).server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'E_APP_KEY_MISMATCH')
    assert.notEqual(
      readFileSync(join(instances.otherDir, 'app_key'), 'utf8'),
      readFileSync(join(instances.fresh.env.DATA_DIR, 'app_key'), 'utf8')
    )

    copyFileSync(join(instances.fresh.env.DATA_DIR, 'app_key'), join(instances.otherDir, 'app_key'))
    const fixed = await instances.serve(secondEnv)
    assert.isTrue(await becomesHealthy(fixed), fixed.server.output())
  }).timeout(120_000)
})
