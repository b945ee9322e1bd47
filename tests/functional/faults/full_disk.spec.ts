/**
 * With SQLite and DATA_DIR on a full disk (a small tmpfs),
 * nothing is reported saved that is not, and every write answers 507 with a
 * message a person understands (never 500). Answers are checked against the
 * database itself once the server has stopped.
 */
import { test } from '@japa/runner'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { DISK_FULL_MESSAGE } from '#exceptions/disk_full'
import { call, fillDisk, freeDisk, mountTmpfs } from '#tests/helpers/full_disk'
import { migrate, startTernChild } from '#tests/helpers/tern_child'
import { cleanCommittedData } from '#tests/helpers/clean_database'

/** The part of better-sqlite3 (untyped here) the checks use. */
interface SqliteDb {
  prepare(sql: string): { get(...values: unknown[]): unknown }
  close(): void
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  file: string,
  options: { readonly: boolean }
) => SqliteDb

test.group('Faults | full disk (SQLite, DATA_DIR on a small tmpfs)', (group) => {
  group.teardown(cleanCommittedData)
  let dir: string
  group.each.setup(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-full-disk-'))
    const unmount = mountTmpfs(dir, '16m')
    return () => {
      unmount()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('every write answers 507 or is truly saved; nothing answers 500', async ({ assert }) => {
    const env = { DATA_DIR: dir, DB_CONNECTION: 'sqlite', DB_DATABASE: 'tern.sqlite' }
    await migrate(env)
    const child = await startTernChild(env)
    const answers: { what: string; status: number; check?: (db: SqliteDb) => boolean }[] = []
    try {
      const signUp = await call(child, 'POST', '/api/auth/signUp', {
        json: { username: 'fulldisk', email: 'fulldisk@example.com', password: 'password123' },
      })
      assert.equal(signUp.status, 201)
      const cookie = signUp.cookies.join('; ')
      const share = await call(child, 'POST', '/api/shares', {
        cookie,
        json: { id: 'fd-done', expiration: 'never', recipients: [] },
      })
      assert.equal(share.status, 201)
      const chunk = await call(
        child,
        'POST',
        '/api/shares/fd-done/files?name=a.txt&chunkIndex=0&totalChunks=1',
        { cookie, body: Buffer.from('hello') }
      )
      assert.equal(chunk.status, 201)
      assert.equal(
        (await call(child, 'POST', '/api/shares/fd-done/complete', { cookie })).status,
        202
      )
      assert.equal(
        (
          await call(child, 'POST', '/api/shares', {
            cookie,
            json: { id: 'fd-open', expiration: 'never', recipients: [] },
          })
        ).status,
        201
      )

      const filler = fillDisk(dir)

      const record = (what: string, status: number, check: (db: SqliteDb) => boolean) =>
        answers.push({ what, status, check })
      for (let index = 0; index < 10; index++) {
        const id = `fd-new-${index}`
        const created = await call(child, 'POST', '/api/shares', {
          cookie,
          json: { id, expiration: 'never', recipients: [] },
        })
        record(
          `POST /api/shares ${id}`,
          created.status,
          (db) => !!db.prepare('select 1 from shares where id = ?').get(id)
        )
        if (created.status === 507) assert.equal(created.json.message, DISK_FULL_MESSAGE)
      }
      const patched = await call(child, 'PATCH', '/api/shares/fd-done', {
        cookie,
        json: { name: 'renamed on a full disk' },
      })
      record(
        'PATCH /api/shares/:id',
        patched.status,
        (db) =>
          !!db
            .prepare(
              "select 1 from shares where id = 'fd-done' and name = 'renamed on a full disk'"
            )
            .get()
      )
      const signIn = await call(child, 'POST', '/api/auth/signIn', {
        json: { email: 'fulldisk@example.com', password: 'password123' },
      })
      record('POST /api/auth/signIn', signIn.status, () => true)
      const token = await call(child, 'POST', '/api/shares/fd-done/token', { cookie })
      record('POST /api/shares/:id/token', token.status, () => true)
      const apiToken = await call(child, 'POST', '/api/users/me/apiTokens', {
        cookie,
        json: { name: 'full-disk-token' },
      })
      record(
        'POST /api/users/me/apiTokens',
        apiToken.status,
        (db) => !!db.prepare("select 1 from api_tokens where name = 'full-disk-token'").get()
      )
      const upload = await call(
        child,
        'POST',
        '/api/shares/fd-open/files?name=big.bin&chunkIndex=0&totalChunks=1',
        { cookie, body: Buffer.alloc(2 << 20, 7) }
      )
      record(
        'POST /api/shares/:id/files (chunk)',
        upload.status,
        (db) => !!db.prepare("select 1 from share_files where name = 'big.bin'").get()
      )
      const second = await call(child, 'POST', '/api/auth/signUp', {
        json: { username: 'second', email: 'second@example.com', password: 'password123' },
      })
      record(
        'POST /api/auth/signUp',
        second.status,
        (db) => !!db.prepare("select 1 from users where email = 'second@example.com'").get()
      )

      for (const answer of answers) {
        assert.notEqual(answer.status, 500, `${answer.what} answered 500`)
        assert.isTrue(
          answer.status < 300 || answer.status === 507,
          `${answer.what} answered ${answer.status}`
        )
      }
      const full = answers.filter((answer) => answer.status === 507)
      assert.isAbove(full.length, 0, 'the disk was full, yet nothing answered 507')

      // Space comes back: the same process saves again, without a restart.
      freeDisk(filler)
      assert.equal(
        (
          await call(child, 'POST', '/api/shares', {
            cookie,
            json: { id: 'fd-after', expiration: 'never', recipients: [] },
          })
        ).status,
        201
      )
    } finally {
      await child.stop()
    }

    const db = new Database(join(dir, 'tern.sqlite'), { readonly: true })
    try {
      assert.isOk(db.prepare("select 1 from shares where id = 'fd-after'").get())
      for (const answer of answers.filter((candidate) => candidate.status < 300)) {
        assert.isTrue(
          answer.check!(db),
          `${answer.what} answered ${answer.status} but nothing was saved`
        )
      }
    } finally {
      db.close()
    }
    console.log(
      `full disk: ${answers.map((answer) => `${answer.what}=${answer.status}`).join(', ')}`
    )
  }).timeout(60_000)
})

test.group('Faults | full upload disk, database with room', (group) => {
  group.teardown(cleanCommittedData)
  let dir: string
  group.each.setup(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-full-uploads-'))
    // Only DATA_DIR/uploads (the local disk's root) is small: file writes fail with ENOSPC, SQL does not.
    const unmount = mountTmpfs(join(dir, 'uploads'), '2m')
    return () => {
      unmount()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a chunk that cannot be written answers 507; once space is back the same upload completes', async ({
    assert,
  }) => {
    const env = { DATA_DIR: dir, DB_CONNECTION: 'sqlite', DB_DATABASE: 'tern.sqlite' }
    await migrate(env)
    const child = await startTernChild(env)
    try {
      const signUp = await call(child, 'POST', '/api/auth/signUp', {
        json: {
          username: 'fulluploads',
          email: 'fulluploads@example.com',
          password: 'password123',
        },
      })
      const cookie = signUp.cookies.join('; ')
      assert.equal(
        (
          await call(child, 'POST', '/api/shares', {
            cookie,
            json: { id: 'fu-share', expiration: 'never', recipients: [] },
          })
        ).status,
        201
      )
      const filler = fillDisk(join(dir, 'uploads'))

      const path = '/api/shares/fu-share/files?name=big.bin&chunkIndex=0&totalChunks=1'
      const refused = await call(child, 'POST', path, { cookie, body: Buffer.alloc(256 << 10, 7) })
      assert.equal(refused.status, 507)
      assert.equal(
        JSON.stringify(refused.json),
        JSON.stringify({
          statusCode: 507,
          message: DISK_FULL_MESSAGE,
          error: 'Insufficient Storage',
        })
      )

      freeDisk(filler)
      const accepted = await call(child, 'POST', path, { cookie, body: Buffer.alloc(256 << 10, 7) })
      assert.equal(accepted.status, 201, JSON.stringify(accepted.json))
      assert.equal(
        (await call(child, 'POST', '/api/shares/fu-share/complete', { cookie })).status,
        202
      )
      const download = await fetch(`${child.url}/api/shares/fu-share/files/${accepted.json.id}`)
      assert.equal(Buffer.from(await download.arrayBuffer()).length, 256 << 10)
    } finally {
      await child.stop()
    }
  }).timeout(60_000)
})
