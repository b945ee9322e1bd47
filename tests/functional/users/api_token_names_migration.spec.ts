/**
 * The migration that makes API token names unique per user
 * (database/migrations/1610_unique_api_token_names.ts), run against the test
 * database holding duplicates: the oldest token keeps its name, later ones
 * are renamed, and the index then refuses a duplicate.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import UniqueApiTokenNames from '#database/migrations/1610_unique_api_token_names'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { createUser } from '#tests/helpers/auth'

/** Runs the migration's `up` or `down` once. */
async function migrate(direction: 'up' | 'down') {
  const migration = new UniqueApiTokenNames(
    db.connection(),
    '1610_unique_api_token_names.ts',
    false
  )
  if (direction === 'up') await migration.execUp()
  else await migration.execDown()
}

/** Stores a token row named `name` for `userId`, created `minutes` after a fixed time. */
async function token(userId: string, name: string, minutes: number) {
  const at = DateTime.fromISO('2026-01-01T00:00:00Z', { zone: 'utc' })
    .plus({ minutes })
    .toFormat(db.connection().dialect.dateTimeFormat)
  await db.table('api_tokens').insert({
    id: randomUUID(),
    user_id: userId,
    name,
    token_hash: randomUUID(),
    prefix: 'tern_test',
    scopes: '[]',
    last_used_at: null,
    expires_at: null,
    created_at: at,
    updated_at: at,
  })
}

/** The names of `userId`'s tokens, oldest first. */
async function names(userId: string) {
  const rows = await db
    .from('api_tokens')
    .where('user_id', userId)
    .orderBy('created_at')
    .select('name')
  return rows.map((row: { name: string }) => row.name)
}

test.group('Users | API token names migration', (group) => {
  group.teardown(cleanCommittedData)

  test('keeps the oldest name, renames later duplicates (case aside) "name (n)"; the index then refuses a duplicate', async ({
    assert,
  }) => {
    const ada = await createUser()
    const bob = await createUser()
    await migrate('down')
    try {
      await token(ada.id, 'CI', 1)
      await token(ada.id, 'ci', 2)
      await token(ada.id, 'CI (2)', 3)
      await token(ada.id, 'CI', 4)
      await token(ada.id, 'x'.repeat(100), 5)
      await token(ada.id, 'x'.repeat(100), 6)
      await token(bob.id, 'CI', 1)
    } finally {
      await migrate('up')
    }
    assert.deepEqual(await names(ada.id), [
      'CI',
      'ci (3)',
      'CI (2)',
      'CI (4)',
      'x'.repeat(100),
      `${'x'.repeat(96)} (2)`,
    ])
    assert.deepEqual(await names(bob.id), ['CI'])
    await assert.rejects(() => token(bob.id, 'CI', 2))
    assert.deepEqual(await names(bob.id), ['CI'])
  })
})
