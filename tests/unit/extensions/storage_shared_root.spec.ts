/**
 * The storage-root identity (#extensions/storage/shared_root) against the run's database:
 * races between instances on a fresh database, a root from before the check,
 * and a root that lost its id file.
 */
import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storageErrors } from '#extensions/storage/main'
import { STORAGE_ID_FILE, verifyStorageRootId } from '#extensions/storage/shared_root'

test.group('Storage | shared root identity', (group) => {
  let dir: string
  /** A disk name of this test only, so no other test's identity is in the way. */
  let disk: string
  group.each.setup(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-roots-'))
    disk = `test-${randomBytes(4).toString('hex')}`
    return () => rmSync(dir, { recursive: true, force: true })
  })

  test('instances with separate roots starting together on a fresh database: exactly one is accepted', async ({
    assert,
  }) => {
    const roots = ['a', 'b', 'c'].map((name) => join(dir, name))
    const results = await Promise.allSettled(roots.map((root) => verifyStorageRootId(disk, root)))
    assert.lengthOf(
      results.filter((result) => result.status === 'fulfilled'),
      1
    )
    for (const result of results.filter((r) => r.status === 'rejected')) {
      assert.instanceOf(
        (result as PromiseRejectedResult).reason,
        storageErrors.E_STORAGE_ROOT_NOT_SHARED
      )
    }
  })

  test('instances sharing one root starting together are all accepted, with one id', async ({
    assert,
  }) => {
    const root = join(dir, 'shared')
    await Promise.all(Array.from({ length: 5 }, () => verifyStorageRootId(disk, root)))
    assert.match(readFileSync(join(root, STORAGE_ID_FILE), 'utf8'), /^[0-9a-f-]{36}\n$/)
    assert.deepEqual(readdirSync(root), [STORAGE_ID_FILE], 'no temporary file is left behind')
    await verifyStorageRootId(disk, root)
  })

  test('a root that already has an id (from before the database knew one) is adopted', async ({
    assert,
  }) => {
    const root = join(dir, 'old')
    mkdirSync(root)
    writeFileSync(join(root, STORAGE_ID_FILE), '3f1c1d2e-0000-4000-8000-000000000001\n')
    await verifyStorageRootId(disk, root)
    await assert.rejects(
      () => verifyStorageRootId(disk, join(dir, 'new')),
      /3f1c1d2e-0000-4000-8000-000000000001/
    )
  })

  test('a root without its id file is refused with the id to write and how', async ({ assert }) => {
    await verifyStorageRootId(disk, join(dir, 'first'))
    const id = readFileSync(join(dir, 'first', STORAGE_ID_FILE), 'utf8').trim()
    const error = await verifyStorageRootId(disk, join(dir, 'empty')).catch(
      (caught: Error) => caught
    )
    assert.instanceOf(error, storageErrors.E_STORAGE_ROOT_NOT_SHARED)
    assert.include((error as Error).message, `echo ${id} > ${join(dir, 'empty', STORAGE_ID_FILE)}`)
    assert.include((error as Error).message, 'shared volume')
  })
})
