/**
 * Fault suite: several instances starting together on a fresh database,
 * on the run's database (SQLite: instances share one
 * DATA_DIR; MySQL/PostgreSQL: one new database). Each instance runs what
 * `npm start` runs: `ace tern:migrate`, then the server.
 */
import { test } from '@japa/runner'
import { startTern } from '#tests/helpers/spawn_tern'
import { waitFor } from '#tests/helpers/redis_server'
import { withMigrationLock } from '#services/system/migration_lock'
import {
  becomesHealthy,
  freshDatabase,
  startInstance,
  type FreshDatabase,
  type TernInstance,
} from '#tests/helpers/tern_instances'
import { cleanCommittedData } from '#tests/helpers/clean_database'

/** Instances started at the same moment. */
const INSTANCES = 3

test.group('Faults | instances starting together on a fresh database', (group) => {
  group.teardown(cleanCommittedData)
  let fresh: FreshDatabase
  let instances: TernInstance[] = []

  group.each.setup(async () => {
    fresh = await freshDatabase()
    return async () => {
      await Promise.all(instances.map((instance) => instance.server?.stop()))
      instances = []
      await fresh.drop()
    }
  })

  test(`${INSTANCES} instances started at once all migrate, come up and share their secrets`, async ({
    assert,
  }) => {
    instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(fresh.env)))
    for (const instance of instances) {
      assert.equal(instance.migration.code, 0, instance.migration.output)
      assert.notMatch(instance.migration.output, /unable to (acquire|release)|E_MIGRATION_LOCK/i)
    }
    // Exactly one of them applied the migrations; the others waited and found nothing to do.
    const applied = instances.filter((instance) => /Migrated in/.test(instance.migration.output))
    assert.lengthOf(
      applied,
      1,
      instances.map((instance) => instance.migration.output).join('\n---\n')
    )

    const healthy = await Promise.all(instances.map((instance) => becomesHealthy(instance)))
    assert.deepEqual(
      healthy,
      Array(INSTANCES).fill(true),
      instances.map((i) => i.server?.output()).join('\n')
    )

    // One account made on the first instance is usable on every other (same database,
    // same JWT key: the instance secrets were created once).
    const signUp = await fetch(`${instances[0].base}/api/auth/signUp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        email: 'first@example.com',
        username: 'first',
        password: 'password123',
      }),
    })
    assert.equal(signUp.status, 201, await signUp.clone().text())
    const { accessToken } = (await signUp.json()) as { accessToken: string }
    for (const instance of instances) {
      const me = await fetch(`${instance.base}/api/users/me`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      })
      assert.equal(me.status, 200, `${instance.base}: ${await me.text()}`)
    }
  }).timeout(180_000)

  test('an instance that finds another one migrating waits for it instead of failing', async ({
    assert,
  }) => {
    // This process plays the instance that is migrating: it holds the lock of the fresh database.
    const migrate = startTern(['ace.js', 'tern:migrate'], fresh.env, 120_000)
    let exitedEarly = false
    void migrate.exited.then(() => (exitedEarly = true))
    await withMigrationLock(
      async () => {
        const waiting = async () =>
          /waiting for another Tern instance/.test(migrate.output()) || exitedEarly
        await waitFor(waiting, 60_000, 'tern:migrate to report that it waits')
        assert.isFalse(exitedEarly, migrate.output())
      },
      { connectionName: fresh.connect() }
    )
    const result = await migrate.exited
    assert.equal(result.code, 0, result.output)
    assert.include(result.output, 'Migrated in')
  }).timeout(120_000)
})
