/**
 * Issue 11, item 2: with SQLite and DATA_DIR on a full disk (a small tmpfs),
 * nothing is reported saved that is not, and every write answers 507 with a
 * message a person understands (never 500). Answers are checked against the
 * database itself once the server has stopped.
 */
import { test } from '@japa/runner'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, openSync, writeSync, closeSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { DISK_FULL_MESSAGE } from '#exceptions/disk_full'
import { migrate, startTernChild, type TernChild } from '#tests/helpers/tern_child'

/** The part of better-sqlite3 (untyped here) the checks use. */
interface SqliteDb {
  prepare(sql: string): { get(...values: unknown[]): unknown }
  close(): void
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string, options: { readonly: boolean }) => SqliteDb

/** Fills the file system of `dir` until a write fails with ENOSPC. */
function fillDisk(dir: string) {
  const fd = openSync(join(dir, 'filler'), 'w')
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const buffer = Buffer.alloc(size)
      try {
        for (;;) writeSync(fd, buffer)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      }
    }
  } finally {
    closeSync(fd)
  }
}

/** One request to the child: status and JSON body. */
async function call(child: TernChild, method: string, path: string, options: { json?: unknown; body?: Buffer; cookie?: string } = {}) {
  const headers: Record<string, string> = {}
  if (options.cookie) headers.cookie = options.cookie
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  if (options.body) headers['content-type'] = 'application/octet-stream'
  const response = await fetch(`${child.url}${path}`, {
    method,
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.body ? new Uint8Array(options.body) : undefined,
  })
  const text = await response.text()
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0])
  return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text, cookies }
}

test.group('Faults | full disk (SQLite, DATA_DIR on a small tmpfs)', (group) => {
  let dir: string
  group.each.setup(() => {
    if (process.getuid?.() !== 0) {
      throw new Error('The full-disk test mounts a tmpfs and must run as root (it is not skipped).')
    }
    dir = mkdtempSync(join(tmpdir(), 'tern-full-disk-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir])
    return () => {
      execFileSync('umount', ['-l', dir])
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
      const share = await call(child, 'POST', '/api/shares', { cookie, json: { id: 'fd-done', expiration: 'never', recipients: [] } })
      assert.equal(share.status, 201)
      const chunk = await call(child, 'POST', '/api/shares/fd-done/files?name=a.txt&chunkIndex=0&totalChunks=1', { cookie, body: Buffer.from('hello') })
      assert.equal(chunk.status, 201)
      assert.equal((await call(child, 'POST', '/api/shares/fd-done/complete', { cookie })).status, 202)
      assert.equal((await call(child, 'POST', '/api/shares', { cookie, json: { id: 'fd-open', expiration: 'never', recipients: [] } })).status, 201)

      fillDisk(dir)

      const record = (what: string, status: number, check: (db: SqliteDb) => boolean) =>
        answers.push({ what, status, check })
      for (let index = 0; index < 10; index++) {
        const id = `fd-new-${index}`
        const created = await call(child, 'POST', '/api/shares', { cookie, json: { id, expiration: 'never', recipients: [] } })
        record(`POST /api/shares ${id}`, created.status, (db) => !!db.prepare('select 1 from shares where id = ?').get(id))
        if (created.status === 507) assert.equal(created.json.message, DISK_FULL_MESSAGE)
      }
      const patched = await call(child, 'PATCH', '/api/shares/fd-done', { cookie, json: { name: 'renamed on a full disk' } })
      record('PATCH /api/shares/:id', patched.status, (db) => !!db.prepare("select 1 from shares where id = 'fd-done' and name = 'renamed on a full disk'").get())
      const signIn = await call(child, 'POST', '/api/auth/signIn', { json: { email: 'fulldisk@example.com', password: 'password123' } })
      record('POST /api/auth/signIn', signIn.status, () => true)
      const token = await call(child, 'POST', '/api/shares/fd-done/token', { cookie })
      record('POST /api/shares/:id/token', token.status, () => true)
      const apiToken = await call(child, 'POST', '/api/users/me/apiTokens', { cookie, json: { name: 'full-disk-token' } })
      record('POST /api/users/me/apiTokens', apiToken.status, (db) => !!db.prepare("select 1 from api_tokens where name = 'full-disk-token'").get())
      const upload = await call(child, 'POST', '/api/shares/fd-open/files?name=big.bin&chunkIndex=0&totalChunks=1', { cookie, body: Buffer.alloc(2 << 20, 7) })
      record('POST /api/shares/:id/files (chunk)', upload.status, (db) => !!db.prepare("select 1 from share_files where name = 'big.bin'").get())
      const second = await call(child, 'POST', '/api/auth/signUp', { json: { username: 'second', email: 'second@example.com', password: 'password123' } })
      record('POST /api/auth/signUp', second.status, (db) => !!db.prepare("select 1 from users where email = 'second@example.com'").get())

      for (const answer of answers) {
        assert.notEqual(answer.status, 500, `${answer.what} answered 500`)
        assert.isTrue(answer.status < 300 || answer.status === 507, `${answer.what} answered ${answer.status}`)
      }
      const full = answers.filter((answer) => answer.status === 507)
      assert.isAbove(full.length, 0, 'the disk was full, yet nothing answered 507')

      // Space comes back: the same process saves again, without a restart.
      rmSync(join(dir, 'filler'))
      assert.equal((await call(child, 'POST', '/api/shares', { cookie, json: { id: 'fd-after', expiration: 'never', recipients: [] } })).status, 201)
    } finally {
      await child.stop()
    }

    const db = new Database(join(dir, 'tern.sqlite'), { readonly: true })
    try {
      assert.isOk(db.prepare("select 1 from shares where id = 'fd-after'").get())
      for (const answer of answers.filter((candidate) => candidate.status < 300)) {
        assert.isTrue(answer.check!(db), `${answer.what} answered ${answer.status} but nothing was saved`)
      }
    } finally {
      db.close()
    }
    console.log(`full disk: ${answers.map((answer) => `${answer.what}=${answer.status}`).join(', ')}`)
  }).timeout(60_000)
})
