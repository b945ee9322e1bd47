/**
 * One APP_KEY for all instances of a database (issue 12, item 6): the first
 * server records a fingerprint of its key; a server with another key (set in
 * the environment, or generated into a DATA_DIR of its own) refuses to start,
 * saying why and what to do; with the same key it starts. With SQLite the
 * second instance reaches the database through a symbolic link, and shares
 * the storage the same way, so only the key differs.
 */
import { test } from '@japa/runner'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import { spawnTern, startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'
import { becomesHealthy, freshDatabase, type FreshDatabase } from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { APP_KEY_FINGERPRINT_NAME, appKeyFingerprint } from '#services/system/app_key_fingerprint'

const KEY_A = 'a'.repeat(32)
const KEY_B = 'b'.repeat(32)

test.group('Instances | one APP_KEY for all', (group) => {
  group.teardown(cleanCommittedData)
  let fresh: FreshDatabase
  let servers: RunningTern[] = []
  let otherDir: string

  async function serve(env: Record<string, string | undefined>) {
    const port = await freePort()
    const server = startTern(['bin/server.ts'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, 90_000)
    servers.push(server)
    return { base: `http://127.0.0.1:${port}`, server, migration: { code: 0, output: '' } }
  }

  group.each.setup(async () => {
    fresh = await freshDatabase()
    otherDir = mkdtempSync(join(tmpdir(), 'tern-other-key-'))
    const migration = await spawnTern(['ace.js', 'tern:migrate'], fresh.env, 120_000)
    if (migration.code !== 0) throw new Error(migration.output)
    return async () => {
      await Promise.all(servers.map((server) => server.stop()))
      servers = []
      rmSync(otherDir, { recursive: true, force: true })
      await fresh.drop()
    }
  })

  test('another APP_KEY is refused with why and what to do; the same key starts', async ({ assert }) => {
    const first = await serve({ ...fresh.env, APP_KEY: KEY_A })
    assert.isTrue(await becomesHealthy(first), first.server.output())

    const other = await serve({ ...fresh.env, APP_KEY: KEY_B })
    const refused = await other.server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'Tern cannot start: E_APP_KEY_MISMATCH')
    assert.include(refused.output, 'must share APP_KEY')
    assert.include(refused.output, 'DATA_DIR/app_key')
    assert.notInclude(refused.output, KEY_A)
    assert.notInclude(refused.output, KEY_B)

    // Only a fingerprint is stored, never the key.
    const name = fresh.connect()
    const row = await db.connection(name).from('instance_secrets').where('name', APP_KEY_FINGERPRINT_NAME).first()
    assert.equal(row.value, appKeyFingerprint(KEY_A))
    assert.notInclude(String(row.value), KEY_A)

    const same = await serve({ ...fresh.env, APP_KEY: KEY_A })
    assert.isTrue(await becomesHealthy(same), same.server.output())
  }).timeout(120_000)

  test('a key generated into another DATA_DIR is refused until DATA_DIR/app_key is copied', async ({
    assert,
  }) => {
    const first = await serve({ ...fresh.env, APP_KEY: undefined })
    assert.isTrue(await becomesHealthy(first), first.server.output())

    // Same database and same storage (as a shared volume would give), own DATA_DIR otherwise.
    if (fresh.env.DB_CONNECTION === 'sqlite') {
      symlinkSync(join(fresh.env.DATA_DIR, 'tern.sqlite'), join(otherDir, 'tern.sqlite'))
    }
    symlinkSync(join(fresh.env.DATA_DIR, 'uploads'), join(otherDir, 'uploads'))
    const secondEnv = { ...fresh.env, DATA_DIR: otherDir, APP_KEY: undefined }
    const refused = await (await serve(secondEnv)).server.exited
    assert.equal(refused.code, 1, refused.output)
    assert.include(refused.output, 'E_APP_KEY_MISMATCH')
    assert.notEqual(readFileSync(join(otherDir, 'app_key'), 'utf8'), readFileSync(join(fresh.env.DATA_DIR, 'app_key'), 'utf8'))

    copyFileSync(join(fresh.env.DATA_DIR, 'app_key'), join(otherDir, 'app_key'))
    const fixed = await serve(secondEnv)
    assert.isTrue(await becomesHealthy(fixed), fixed.server.output())
  }).timeout(120_000)
})
