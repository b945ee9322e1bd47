import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { storage } from '#extensions/storage/main'
import Share from '#models/share'
import ShareService from '#services/shares/share_service'
import type { ImportReport } from '#services/pingvin_import/report'
import { createUser } from '#tests/helpers/auth'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import {
  buildPingvinFixture,
  hashTree,
  sha256,
  type PingvinFixture,
} from '#tests/helpers/pingvin_fixture'
import { startS3Server } from '#tests/helpers/s3_server'
import { api, setConfig, shareToken } from '#tests/helpers/shares'

/** The part of better-sqlite3 (untyped here) the tests use to touch the Pingvin database. */
interface SqliteDb {
  prepare(sql: string): { run(...params: unknown[]): unknown }
  pragma(source: string): unknown
  close(): void
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDb

const TABLES = [
  'users',
  'social_accounts',
  'reverse_shares',
  'shares',
  'share_securities',
  'share_recipients',
  'files',
  'pingvin_import_rows',
]

interface ImportRun {
  exitCode: number | undefined
  report: ImportReport | null
  output: string
}

/** Runs `node ace pingvin:import <args>` through the ace kernel of the test process. */
async function runImport(args: string[], json = true): Promise<ImportRun> {
  const ace = await app.container.make('ace')
  ace.ui.switchMode('raw')
  try {
    const command = await ace.exec('pingvin:import', json ? [...args, '--json'] : args)
    if (command.error) throw command.error
    const output = command.logger
      .getLogs()
      .map((log) => log.message)
      .join('\n')
    const jsonLine = output.split('\n').find((line) => line.startsWith('{'))
    return { exitCode: command.exitCode, report: jsonLine ? JSON.parse(jsonLine) : null, output }
  } finally {
    ace.ui.switchMode('normal')
  }
}

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    const [row] = await db.from(table).count('* as total')
    counts[table] = Number(row.total)
  }
  return counts
}

async function storedKeys(disk = 'local'): Promise<string[]> {
  const { objects } = await storage.use(disk).listAll('shares', { recursive: true })
  return [...objects].map((object) => ('key' in object ? object.key : object.prefix)).sort()
}

function linesOf(report: ImportReport, table: string, key: string) {
  return report.lines
    .filter((line) => line.table === table && line.key === key)
    .map((line) => `${line.level}: ${line.reason}`)
}

/** Downloads a file over HTTP after taking a share token; resolves to the bytes (throws on a non-200). */
async function download(shareId: string, fileId: string, password?: string): Promise<Buffer> {
  const { response, cookie } = await shareToken(shareId, password)
  if (response.status !== 200)
    throw new Error(`token ${shareId}: ${response.status} ${response.bytes}`)
  const file = await api('GET', `/api/shares/${shareId}/files/${fileId}`, { cookie })
  if (file.status !== 200) throw new Error(`download ${fileId}: ${file.status} ${file.bytes}`)
  return file.bytes
}

test.group('Pingvin import', (group) => {
  let pingvin: PingvinFixture
  let config: { key: string; value: string | null }[]

  group.each.setup(async () => {
    config = await db.from('config_variables').select('key', 'value')
    pingvin = await buildPingvinFixture()
  })
  group.each.teardown(async () => {
    const shares = await app.container.make(ShareService)
    for (const share of await Share.all()) await shares.delete(share)
    await cleanCommittedData()
    for (const row of config)
      await db.from('config_variables').where('key', row.key).update({ value: row.value })
    await db
      .from('config_variables')
      .whereNotIn(
        'key',
        config.map((row) => row.key)
      )
      .delete()
    await pingvin.remove()
  })

  test('imports users, links, reverse shares, shares and files with their ids, and reports every row it skips', async ({
    assert,
  }) => {
    const sourceBefore = await hashTree(pingvin.dir)
    const run = await runImport([pingvin.dir])
    assert.equal(run.exitCode, 0, run.output)
    const report = run.report!
    assert.isNull(report.refused)
    assert.deepEqual(report.tables.User, { read: 6, imported: 5, alreadyImported: 0, skipped: 1 })
    assert.match(
      linesOf(report, 'User', pingvin.ids.aliceByCase).join(),
      new RegExp(`collision: username "ALICE.*" is taken by user ${pingvin.ids.alice}`)
    )
    assert.deepEqual(report.tables.OAuthUser, {
      read: 2,
      imported: 1,
      alreadyImported: 0,
      skipped: 1,
    })
    assert.deepEqual(report.tables.ReverseShare, {
      read: 2,
      imported: 2,
      alreadyImported: 0,
      skipped: 0,
    })
    assert.deepEqual(report.tables.Share, { read: 10, imported: 5, alreadyImported: 0, skipped: 5 })
    assert.equal(report.tables.File.imported, 7)
    assert.equal(report.tables.ShareRecipient.imported, 2)
    assert.equal(report.tables.ShareSecurity.imported, 1)

    // Reasons, one line per row not imported.
    const s = pingvin.shares
    assert.match(linesOf(report, 'Share', s.expired).join(), /skipped: expired/)
    assert.match(linesOf(report, 'Share', s.unfinished).join(), /unfinished upload/)
    assert.match(linesOf(report, 'Share', s.s3).join(), /in Pingvin's S3 bucket/)
    assert.match(
      linesOf(report, 'Share', s.allMissing).join(),
      /no file of the share can be imported/
    )
    assert.match(
      linesOf(report, 'Share', s.corrupt).join(),
      /expiration: unreadable timestamp "next tuesday"/
    )
    assert.match(linesOf(report, 'File', pingvin.files.missing).join(), /file data missing/)
    assert.match(
      linesOf(report, 'File', pingvin.files.mismatched).join(),
      /warning: size 999 in Pingvin's row, 12 bytes copied/
    )
    assert.isTrue(
      report.lines.some((line) => line.table === 'uploads' && line.key.startsWith('orphan-'))
    )
    assert.isTrue(
      report.lines.some(
        (line) => line.table === 'ShareSecurity' && /belongs to no share/.test(line.reason)
      )
    )
    assert.isTrue(
      report.lines.some(
        (line) => line.table === 'OAuthUser' && /a second github account/.test(line.reason)
      )
    )

    // Users: ids, admin flag, the argon2 hash as it was, TOTP state; LDAP and social links.
    const admin = await db.from('users').where('id', pingvin.ids.admin).firstOrFail()
    assert.isTrue(Boolean(admin.is_admin))
    assert.match(admin.password, /^\$argon2id\$/)
    const alice = await db.from('users').where('id', pingvin.ids.alice).firstOrFail()
    assert.equal(alice.totp_secret, pingvin.totpSecret)
    assert.isTrue(Boolean(alice.totp_verified))
    const bob = await db.from('users').where('id', pingvin.ids.bob).firstOrFail()
    assert.isFalse(Boolean(bob.totp_verified))
    assert.equal(new Date(bob.created_at).toISOString(), '2023-02-09T10:13:45.000Z')
    assert.isNull(
      (await db.from('users').where('id', pingvin.ids.oauthOnly).firstOrFail()).password
    )
    const links = await db.from('social_accounts').orderBy('provider')
    assert.deepEqual(
      links.map((link) => [link.provider, link.user_id]),
      [
        ['github', pingvin.ids.oauthOnly],
        ['ldap', pingvin.ids.ldapUser],
      ]
    )

    // Reverse shares: token kept, never = null, used up stays 0, flags.
    const reverse = await db
      .from('reverse_shares')
      .where('id', pingvin.ids.reverseShare)
      .firstOrFail()
    assert.equal(reverse.token, pingvin.reverseShareToken)
    assert.isNull(reverse.share_expiration)
    assert.isTrue(Boolean(reverse.simplified))
    assert.isFalse(Boolean(reverse.public_access))
    assert.equal(
      (await db.from('reverse_shares').where('id', pingvin.ids.usedReverseShare).firstOrFail())
        .remaining_uses,
      0
    )
    const live = await api('GET', `/api/reverseShares/${pingvin.reverseShareToken}`)
    assert.equal(live.status, 200)
    assert.equal(live.json.id, pingvin.ids.reverseShare)

    // Shares: old links work, bytes identical.
    const never = await db.from('shares').where('id', s.never).firstOrFail()
    assert.isNull(never.expiration)
    assert.equal(never.views, 7)
    assert.equal(never.name, 'Holiday')
    const token = await shareToken(s.never)
    const page = await api('GET', `/api/shares/${s.never}`, { cookie: token.cookie })
    assert.equal(page.status, 200)
    assert.deepEqual(
      page.json.files.map((file: { id: string }) => file.id).sort(),
      [pingvin.files.big, pingvin.files.text].sort()
    )
    for (const fileId of [pingvin.files.big, pingvin.files.text]) {
      assert.equal(sha256(await download(s.never, fileId)), sha256(pingvin.bytes[fileId]))
    }
    assert.equal(
      sha256(await download(s.anonymous, pingvin.files.anonymousFile)),
      sha256(pingvin.bytes[pingvin.files.anonymousFile])
    )
    const partialFiles = await db.from('files').where('share_id', s.partial).orderBy('name')
    assert.deepEqual(
      partialFiles.map((file) => [file.name, Number(file.size), Boolean(file.completed)]),
      [
        ['mismatch.txt', 12, true],
        ['present.txt', 15, true],
      ]
    )
    const viaReverse = await db.from('shares').where('id', s.viaReverseShare).firstOrFail()
    assert.equal(viaReverse.reverse_share_id, pingvin.ids.reverseShare)

    // The protected share keeps its password hash, view limit and recipients.
    const locked = await api('POST', `/api/shares/${s.protected}/token`, { json: {} })
    assert.equal(locked.status, 403)
    const security = await db.from('share_securities').where('share_id', s.protected).firstOrFail()
    assert.match(security.password, /^\$argon2id\$/)
    assert.equal(security.max_views, 5)
    const recipients = await db
      .from('share_recipients')
      .where('share_id', s.protected)
      .orderBy('email')
    assert.deepEqual(
      recipients.map((row) => row.email),
      ['one@example.com', 'two@example.com']
    )
    assert.isNull(await db.from('shares').where('id', s.expired).first())
    assert.isNull(await db.from('shares').where('id', s.unfinished).first())
    assert.equal(
      await storedKeys().then(
        (keys) => keys.filter((k) => k.includes('archive.zip') || k.includes('tmp-chunk')).length
      ),
      0
    )

    // Settings went through the configuration mapping; an imported admin finishes the first-run setup.
    assert.isAtLeast(report.config!.imported, 2)
    assert.isTrue(report.config!.skipped.some((line) => line.key === 'internal.jwtSecret'))
    const setting = async (key: string) =>
      (await db.from('config_variables').where('key', key).first())?.value
    assert.equal(await setting('smtp.password'), 'smtp-secret')
    assert.equal(await setting('internal.setupFinished'), 'true')

    // Nothing in the source changed.
    assert.deepEqual(await hashTree(pingvin.dir), sourceBefore)
  })

  test('imported accounts sign in with their Pingvin password, TOTP still applies, the share password works', async ({
    assert,
  }) => {
    const run = await runImport([pingvin.dir])
    assert.equal(run.exitCode, 0, run.output)
    const admin = await db.from('users').where('id', pingvin.ids.admin).firstOrFail()
    const signIn = await api('POST', '/api/auth/signIn', {
      json: { username: admin.username, password: pingvin.passwords.admin },
    })
    assert.equal(signIn.status, 200, signIn.bytes.toString())
    assert.isString(signIn.json.accessToken)
    const wrong = await api('POST', '/api/auth/signIn', {
      json: { username: admin.username, password: 'not-it' },
    })
    assert.equal(wrong.status, 401)
    const alice = await db.from('users').where('id', pingvin.ids.alice).firstOrFail()
    const totp = await api('POST', '/api/auth/signIn', {
      json: { email: alice.email, password: pingvin.passwords.alice },
    })
    assert.equal(totp.status, 200, totp.bytes.toString())
    assert.isString(totp.json.loginToken)
    assert.notProperty(totp.json, 'accessToken')

    const refused = await shareToken(pingvin.shares.protected, 'wrong-password')
    assert.equal(refused.response.status, 403)
    const file = pingvin.files.protectedFile
    assert.equal(
      sha256(await download(pingvin.shares.protected, file, pingvin.passwords.share)),
      sha256(pingvin.bytes[file])
    )
  })

  test('a second run imports nothing twice', async ({ assert }) => {
    const first = await runImport([pingvin.dir])
    assert.equal(first.exitCode, 0, first.output)
    const counts = await rowCounts()
    const keys = await storedKeys()
    const second = await runImport([pingvin.dir])
    assert.equal(second.exitCode, 0, second.output)
    const report = second.report!
    for (const table of [
      'User',
      'OAuthUser',
      'ReverseShare',
      'Share',
      'File',
      'ShareSecurity',
      'ShareRecipient',
    ]) {
      assert.equal(report.tables[table].imported, 0, table)
    }
    assert.deepEqual(report.tables.User, { read: 6, imported: 0, alreadyImported: 5, skipped: 1 })
    assert.equal(report.tables.Share.alreadyImported, 5)
    assert.equal(report.tables.File.alreadyImported, 7)
    assert.equal(report.tables.OAuthUser.alreadyImported, 1)
    assert.deepEqual(await rowCounts(), counts)
    assert.deepEqual(await storedKeys(), keys)
  })

  test('a Tern instance holding data is refused without --merge; with --merge collisions are reported, never overwritten', async ({
    assert,
  }) => {
    const existing = await createUser({
      username: `admin${pingvin.shares.never.slice(-6)}`,
      email: 'someone@example.org',
    })
    const before = await rowCounts()
    const refused = await runImport([pingvin.dir])
    assert.equal(refused.exitCode, 1)
    assert.match(refused.report!.refused!, /Tern already holds data \(1 users\); use --merge/)
    assert.deepEqual(await rowCounts(), before)

    const merged = await runImport([pingvin.dir, '--merge'])
    assert.equal(merged.exitCode, 0, merged.output)
    const report = merged.report!
    assert.match(
      linesOf(report, 'User', pingvin.ids.admin).join(),
      new RegExp(`collision: username "${existing.username}" is taken by user ${existing.id}`)
    )
    assert.match(
      linesOf(report, 'Share', pingvin.shares.protected).join(),
      new RegExp(`parent User ${pingvin.ids.admin} not imported`)
    )
    assert.match(
      linesOf(report, 'ReverseShare', pingvin.ids.usedReverseShare).join(),
      /parent User/
    )
    assert.equal(report.tables.User.imported, 4)
    const kept = await db.from('users').where('id', existing.id).firstOrFail()
    assert.equal(kept.email, 'someone@example.org')
    assert.isNull(await db.from('users').where('id', pingvin.ids.admin).first())

    // A re-run after the merge needs no --merge: everything Tern holds is the merge's or this source's.
    const again = await runImport([pingvin.dir, '--merge'])
    assert.equal(again.report!.tables.User.alreadyImported, 4)
    assert.equal(again.report!.tables.User.imported, 0)
  })

  test('--dry-run reports what it would import and writes nothing', async ({ assert }) => {
    const before = await rowCounts()
    const keys = await storedKeys()
    const dry = await runImport([pingvin.dir, '--dry-run'])
    assert.equal(dry.exitCode, 0, dry.output)
    assert.isTrue(dry.report!.dryRun)
    assert.deepEqual(await rowCounts(), before)
    assert.deepEqual(await storedKeys(), keys)
    const real = await runImport([pingvin.dir])
    for (const table of ['User', 'ReverseShare', 'Share', 'ShareSecurity', 'ShareRecipient']) {
      assert.deepEqual(dry.report!.tables[table], real.report!.tables[table], table)
    }
    // The dry run cannot know a copy fails: both count the files that exist.
    assert.equal(dry.report!.tables.File.imported, real.report!.tables.File.imported)
  })

  test('prints counts and reasons as text; --db with --uploads; a corrupt user row is reported and skipped', async ({
    assert,
  }) => {
    pingvin.insert('User', {
      id: 'broken-user',
      createdAt: 'yesterday-ish',
      updatedAt: Date.now(),
      username: 'broken',
      email: 'broken@example.com',
      isAdmin: 0,
    })
    const run = await runImport(['--db', pingvin.dbPath, '--uploads', pingvin.uploads], false)
    assert.equal(run.exitCode, 0, run.output)
    assert.match(run.output, /User\s+read 7, imported 5, already imported 0, skipped 2/)
    assert.match(
      run.output,
      /skipped User broken-user: createdAt: unreadable timestamp "yesterday-ish"/
    )
    assert.match(run.output, new RegExp(`skipped Share ${pingvin.shares.expired}: expired`))
    assert.isNull(await db.from('users').where('id', 'broken-user').first())
  })

  test('a source that is not importable is refused with a message', async ({ assert }) => {
    const missing = await runImport([join(pingvin.dir, 'nope')], false)
    assert.equal(missing.exitCode, 1)
    assert.match(missing.output, /cannot read the Pingvin database/)
    const both = await runImport([pingvin.dir, '--db', pingvin.dbPath], false)
    assert.equal(both.exitCode, 1)
    assert.match(both.output, /either <dir>/)

    const handle = new Database(pingvin.dbPath)
    handle
      .prepare(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ('x', 'x', '20990101_half', 1)`
      )
      .run()
    handle.close()
    const half = await runImport([pingvin.dir], false)
    assert.equal(half.exitCode, 1)
    assert.match(half.output, /unfinished or rolled-back migration \(20990101_half\)/)

    await writeFile(join(pingvin.dir, 'other.db'), 'not a database at all')
    const garbage = await runImport(
      ['--db', join(pingvin.dir, 'other.db'), '--uploads', pingvin.uploads],
      false
    )
    assert.equal(garbage.exitCode, 1)
    assert.match(garbage.output, /cannot open the Pingvin database/)
    assert.deepEqual(await rowCounts(), Object.fromEntries(TABLES.map((table) => [table, 0])))
  })

  test('a share left pending by a run that died is finished by the next run', async ({
    assert,
  }) => {
    await runImport([pingvin.dir])
    const shareId = pingvin.shares.never
    // As if the run had died between inserting the rows and copying the bytes.
    await db
      .from('pingvin_import_rows')
      .whereIn('source_key', [shareId, pingvin.files.big, pingvin.files.text])
      .update({ state: 'pending' })
    await db.from('files').where('share_id', shareId).update({ completed: false })
    await db.from('shares').where('id', shareId).update({ completed: false })
    await storage.use('local').delete(`shares/${shareId}/${pingvin.files.big}`)
    // Half-imported is invisible: the share answers as missing until the run completes it.
    assert.equal((await api('POST', `/api/shares/${shareId}/token`, { json: {} })).status, 404)

    const resumed = await runImport([pingvin.dir])
    assert.equal(resumed.exitCode, 0, resumed.output)
    assert.equal(resumed.report!.tables.Share.imported, 1)
    assert.match(linesOf(resumed.report!, 'Share', shareId).join(), /finishing an import/)
    assert.equal(
      sha256(await download(shareId, pingvin.files.big)),
      sha256(pingvin.bytes[pingvin.files.big])
    )
    assert.equal(
      Number(
        (await db.from('pingvin_import_rows').where('state', 'pending').count('* as total'))[0]
          .total
      ),
      0
    )
  })

  test('an older Pingvin schema (no names, flags, LDAP or OAuth table) is imported', async ({
    assert,
  }) => {
    await pingvin.remove()
    pingvin = await buildPingvinFixture({ schema: '0.x' })
    const run = await runImport([pingvin.dir])
    assert.equal(run.exitCode, 0, run.output)
    assert.equal(run.report!.tables.User.imported, 5)
    assert.equal(run.report!.tables.OAuthUser.read, 0)
    assert.equal(run.report!.tables.Share.imported, 5)
    const reverse = await db
      .from('reverse_shares')
      .where('id', pingvin.ids.reverseShare)
      .firstOrFail()
    assert.isFalse(Boolean(reverse.simplified))
    assert.isTrue(Boolean(reverse.public_access))
    assert.isNull((await db.from('shares').where('id', pingvin.shares.never).firstOrFail()).name)
    assert.equal(
      sha256(await download(pingvin.shares.never, pingvin.files.big)),
      sha256(pingvin.bytes[pingvin.files.big])
    )
  })

  test('files go to the S3 disk when S3 is the storage of new files', async ({
    assert,
    cleanup,
  }) => {
    const s3 = await startS3Server({ bucket: 'tern-import' })
    cleanup(() => s3.close())
    await setConfig('s3.enabled', 'true')
    await setConfig('s3.endpoint', s3.endpoint)
    await setConfig('s3.bucketName', s3.bucket)
    await setConfig('s3.bucketPath', 'imported')
    await setConfig('s3.key', s3.accessKeyId)
    await setConfig('s3.secret', s3.secretAccessKey)
    await setConfig('s3.forcePathStyle', 'true')
    const run = await runImport([pingvin.dir])
    assert.equal(run.exitCode, 0, run.output)
    assert.equal(run.report!.disk, 's3')
    const files = await db.from('files')
    assert.lengthOf(files, 7)
    assert.isTrue(files.every((file) => file.disk === 's3'))
    const big = pingvin.files.big
    assert.equal(
      sha256(await storage.use('s3').getBytes(`shares/${pingvin.shares.never}/${big}`)),
      sha256(pingvin.bytes[big])
    )
    assert.equal(sha256(await download(pingvin.shares.never, big)), sha256(pingvin.bytes[big]))
    // Nothing of the imported shares on the local disk (other test files may have left their own there).
    const imported = Object.values(pingvin.shares).map((id) => `shares/${id}/`)
    assert.deepEqual(
      (await storedKeys('local')).filter((key) =>
        imported.some((prefix) => key.startsWith(prefix))
      ),
      []
    )
  })

  test('a source with a WAL file is read through a copy and never written', async ({ assert }) => {
    const handle = new Database(pingvin.dbPath)
    handle.pragma('journal_mode = WAL')
    handle.pragma('wal_autocheckpoint = 0')
    // Committed to the WAL only, as a running Pingvin leaves it.
    handle.prepare(`UPDATE "Share" SET views = 42 WHERE id = ?`).run(pingvin.shares.never)
    try {
      const before = await hashTree(pingvin.dir)
      assert.include(Object.keys(before), 'pingvin-share.db-wal')
      const run = await runImport([pingvin.dir])
      assert.equal(run.exitCode, 0, run.output)
      assert.equal(
        (await db.from('shares').where('id', pingvin.shares.never).firstOrFail()).views,
        42
      )
      assert.deepEqual(await hashTree(pingvin.dir), before)
    } finally {
      handle.close()
    }
  })
})
