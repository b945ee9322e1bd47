import { readdirSync } from 'node:fs'
import { randomBytes, randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import User from '#models/user'
import RefreshToken from '#models/refresh_token'
import LoginToken from '#models/login_token'
import PasswordResetToken from '#models/password_reset_token'
import SocialAccount from '#models/social_account'
import ApiToken from '#models/api_token'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import ShareSecurity from '#models/share_security'
import ShareRecipient from '#models/share_recipient'
import ShareFile from '#models/share_file'
import UploadSession from '#models/upload_session'
import UploadChunk from '#models/upload_chunk'

/** 5 GiB: above 2^32, so it only survives in a real 64-bit column. */
const FIVE_GIB = 5 * 1024 * 1024 * 1024

/** The tables of the data model created by the migrations. */
const MODEL_TABLES = [
  'users',
  'config_variables',
  'instance_secrets',
  'refresh_tokens',
  'login_tokens',
  'password_reset_tokens',
  'social_accounts',
  'api_tokens',
  'reverse_shares',
  'shares',
  'share_securities',
  'share_recipients',
  'files',
  'upload_sessions',
  'upload_chunks',
]

function digest() {
  return randomBytes(32).toString('hex')
}

async function makeUser(name = `u${randomBytes(4).toString('hex')}`) {
  return User.create({ username: name, email: `${name}@example.com`, password: null })
}

/**
 * A user with a reverse share, a share made through it (with security, two
 * recipients, a file, its upload session and two chunks) and one of every token.
 */
async function makeGraph() {
  const user = await makeUser()
  const reverseShare = await ReverseShare.create({
    token: digest(),
    creatorId: user.id,
    maxShareSize: FIVE_GIB,
    shareExpiration: null,
    remainingUses: 3,
  })
  const share = await Share.create({
    id: `share-${randomBytes(4).toString('hex')}`,
    name: 'Holiday',
    creatorId: user.id,
    reverseShareId: reverseShare.id,
    expiration: null,
  })
  const security = await ShareSecurity.create({ shareId: share.id, password: 'hash', maxViews: 4 })
  await ShareRecipient.createMany([
    { shareId: share.id, email: 'a@example.com' },
    { shareId: share.id, email: 'b@example.com' },
  ])
  const file = await ShareFile.create({
    shareId: share.id,
    name: 'movie.mkv',
    size: FIVE_GIB,
    mimeType: 'video/x-matroska',
    disk: 'local',
    storageKey: `shares/${share.id}/movie.mkv`,
  })
  const session = await UploadSession.create({
    fileId: file.id,
    shareId: share.id,
    totalChunks: 3,
    chunkSize: FIVE_GIB,
    multipartUploadId: 'mp-1',
  })
  await UploadChunk.createMany([
    { uploadSessionId: session.id, chunkIndex: 0, size: FIVE_GIB, etag: '"e0"' },
    { uploadSessionId: session.id, chunkIndex: 1, size: 10, etag: null },
  ])
  const inOneHour = DateTime.now().plus({ hours: 1 })
  await RefreshToken.create({ userId: user.id, tokenHash: digest(), expiresAt: inOneHour })
  await LoginToken.create({ userId: user.id, tokenHash: digest(), expiresAt: inOneHour })
  await PasswordResetToken.create({ userId: user.id, tokenHash: digest(), expiresAt: inOneHour })
  await SocialAccount.create({
    userId: user.id,
    provider: 'github',
    providerUserId: randomUUID(),
    providerUsername: 'octo',
  })
  await ApiToken.create({
    userId: user.id,
    name: 'cli',
    tokenHash: digest(),
    prefix: 'tern_abc',
    scopes: ['shares:read'],
  })
  return { user, reverseShare, share, security, file, session }
}

/** Number of rows of `table` where `column` = `value`. */
async function countWhere(table: string, column: string, value: string) {
  const [row] = await db.from(table).where(column, value).count('* as total')
  return Number(row.total)
}

/** A promise that must reject; runs `fn` in a nested transaction (a savepoint) so PostgreSQL can go on. */
async function failsInSavepoint(
  fn: (trx: Awaited<ReturnType<typeof db.transaction>>) => Promise<unknown>
) {
  try {
    await db.transaction(async (trx) => {
      await fn(trx)
    })
  } catch {
    return true
  }
  return false
}

test.group('Data model | migrations', () => {
  test('every migration file on disk has been run', async ({ assert }) => {
    const files = readdirSync(app.migrationsPath())
      .filter((name) => /\.(ts|js)$/.test(name))
      .map((name) => name.replace(/\.(ts|js)$/, ''))
    const rows = await db.from('adonis_schema').select('name')
    const migrated = rows.map((row: { name: string }) => row.name.split('/').pop())
    assert.isAbove(files.length, 0)
    for (const file of files) assert.include(migrated, file)
    for (const table of MODEL_TABLES) {
      assert.isTrue(await db.connection().schema.hasTable(table), `table ${table} exists`)
    }
  })

  test('rolling back every migration drops every table and migrating again restores them', async ({
    assert,
  }) => {
    const client = db.connection()
    const connectionName = client.connectionName
    const ignored = (name: string) => name.startsWith('adonis_schema') || name.startsWith('sqlite_')
    const schemas = client.dialect.name === 'postgres' ? ['public'] : undefined
    const graph = await makeGraph()

    /* Keep the rows other tests may rely on (seeded settings, secrets) to put them back afterwards. */
    const tables = (await client.getAllTables(schemas)).filter((name) => !ignored(name))
    const snapshot = new Map<string, Record<string, unknown>[]>()
    for (const table of tables) snapshot.set(table, await client.from(table).select('*'))

    const down = new MigrationRunner(db, app, { direction: 'down', batch: 0, connectionName })
    let up: MigrationRunner | undefined
    try {
      await down.run()
      assert.isNull(down.error, String(down.error))
      for (const table of MODEL_TABLES) {
        assert.isFalse(await client.schema.hasTable(table), `table ${table} is dropped`)
      }
    } finally {
      up = new MigrationRunner(db, app, { direction: 'up', connectionName })
      await up.run()
      await restore(snapshot)
    }
    assert.isNull(up.error, String(up.error))
    for (const table of MODEL_TABLES) {
      assert.isTrue(await client.schema.hasTable(table), `table ${table} exists again`)
    }
    for (const [table, rows] of snapshot) {
      const [row] = await client.from(table).count('* as total')
      assert.equal(Number(row.total), rows.length, `rows of ${table} are back`)
    }

    /* The rows made before the rollback are back, and the re-created foreign keys cascade again. */
    const file = await ShareFile.findOrFail(graph.file.id)
    assert.strictEqual(file.size, FIVE_GIB)
    await graph.user.delete()
    assert.equal(await countWhere('shares', 'id', graph.share.id), 0)
    assert.equal(await countWhere('upload_chunks', 'upload_session_id', graph.session.id), 0)
  })
})

/**
 * Re-inserts the snapshot, parents before children: a table whose insert fails
 * (its parent rows are not back yet) is retried after the others.
 */
async function restore(snapshot: Map<string, Record<string, unknown>[]>) {
  let pending = [...snapshot].filter(([, rows]) => rows.length > 0)
  while (pending.length > 0) {
    const failed: typeof pending = []
    for (const entry of pending) {
      const [table, rows] = entry
      try {
        await db.transaction(async (trx) => {
          await trx.insertQuery().table(table).multiInsert(rows)
        })
      } catch {
        failed.push(entry)
      }
    }
    if (failed.length === pending.length) {
      throw new Error(`Cannot restore rows of ${failed.map(([table]) => table).join(', ')}`)
    }
    pending = failed
  }
}

test.group('Data model | relations', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('a share loads its creator, reverse share, security, recipients, files and upload sessions', async ({
    assert,
  }) => {
    const { user, reverseShare, share, file, session } = await makeGraph()

    const loaded = await Share.query()
      .where('id', share.id)
      .preload('creator')
      .preload('reverseShare')
      .preload('security')
      .preload('recipients')
      .preload('files', (files) => files.preload('uploadSession'))
      .preload('uploadSessions', (sessions) => sessions.preload('chunks').preload('file'))
      .firstOrFail()

    assert.equal(loaded.creator.id, user.id)
    assert.equal(loaded.reverseShare.id, reverseShare.id)
    assert.equal(loaded.security.maxViews, 4)
    assert.sameMembers(
      loaded.recipients.map((recipient) => recipient.email),
      ['a@example.com', 'b@example.com']
    )
    assert.deepEqual(
      loaded.files.map((f) => f.id),
      [file.id]
    )
    assert.equal(loaded.files[0].uploadSession.id, session.id)
    assert.equal(loaded.uploadSessions[0].file.id, file.id)
    assert.deepEqual(
      loaded.uploadSessions[0].chunks.map((chunk) => chunk.chunkIndex).sort(),
      [0, 1]
    )
    assert.isFalse(loaded.completed)
    assert.equal(loaded.views, 0)
    assert.isNull(loaded.expiration)
  })

  test('a reverse share loads its creator and its shares; tokens and accounts load their user', async ({
    assert,
  }) => {
    const { user, reverseShare, share } = await makeGraph()

    const loaded = await ReverseShare.query()
      .where('id', reverseShare.id)
      .preload('creator')
      .preload('shares')
      .firstOrFail()
    assert.equal(loaded.creator.username, user.username)
    assert.deepEqual(
      loaded.shares.map((s) => s.id),
      [share.id]
    )
    assert.equal(loaded.remainingUses, 3)
    assert.isTrue(loaded.publicAccess)
    assert.isFalse(loaded.simplified)
    assert.isFalse(loaded.sendEmailNotification)

    for (const Model of [RefreshToken, LoginToken, PasswordResetToken, SocialAccount, ApiToken]) {
      const row = await Model.query().where('user_id', user.id).preload('user').firstOrFail()
      assert.equal(row.user.id, user.id, `${Model.name} loads its user`)
    }
    const apiToken = await ApiToken.findByOrFail('userId', user.id)
    assert.deepEqual(apiToken.scopes, ['shares:read'])
    assert.isNull(apiToken.expiresAt)
    const loginToken = await LoginToken.findByOrFail('userId', user.id)
    assert.isNull(loginToken.usedAt)
  })

  test('column defaults of the database come back through the models', async ({ assert }) => {
    const user = await makeUser()
    const now = DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss')
    await db.table('reverse_shares').insert({
      id: randomUUID(),
      token: digest(),
      creator_id: user.id,
      max_share_size: 1,
      created_at: now,
      updated_at: now,
    })
    await db.table('shares').insert({
      id: 'raw-defaults',
      creator_id: user.id,
      created_at: now,
      updated_at: now,
    })
    const reverseShare = await ReverseShare.findByOrFail('creatorId', user.id)
    assert.isTrue(reverseShare.publicAccess)
    assert.isFalse(reverseShare.simplified)
    assert.isFalse(reverseShare.sendEmailNotification)
    assert.isNull(reverseShare.remainingUses)
    assert.isNull(reverseShare.shareExpiration)
    const share = await Share.findOrFail('raw-defaults')
    assert.strictEqual(share.views, 0)
    assert.strictEqual(share.completed, false)
    assert.isNull(share.expiration)
  })
})

test.group('Data model | cascades', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('deleting a user deletes their shares, files, reverse shares and tokens', async ({
    assert,
  }) => {
    const { user, reverseShare, share, file, session } = await makeGraph()
    const other = await makeGraph()
    const ownShare = await Share.create({
      id: `own-${randomBytes(4).toString('hex')}`,
      creatorId: user.id,
    })

    await user.delete()

    assert.equal(await countWhere('shares', 'id', share.id), 0)
    assert.equal(await countWhere('shares', 'id', ownShare.id), 0)
    assert.equal(await countWhere('reverse_shares', 'id', reverseShare.id), 0)
    assert.equal(await countWhere('files', 'id', file.id), 0)
    assert.equal(await countWhere('upload_sessions', 'id', session.id), 0)
    assert.equal(await countWhere('upload_chunks', 'upload_session_id', session.id), 0)
    assert.equal(await countWhere('share_securities', 'share_id', share.id), 0)
    assert.equal(await countWhere('share_recipients', 'share_id', share.id), 0)
    const tokenTables = [
      'refresh_tokens',
      'login_tokens',
      'password_reset_tokens',
      'social_accounts',
      'api_tokens',
    ]
    for (const table of tokenTables) {
      assert.equal(await countWhere(table, 'user_id', user.id), 0, `${table} of the user are gone`)
      assert.equal(
        await countWhere(table, 'user_id', other.user.id),
        1,
        `${table} of another user stay`
      )
    }
    assert.equal(await countWhere('shares', 'id', other.share.id), 1)
    assert.equal(await countWhere('files', 'id', other.file.id), 1)
  })

  test('deleting a share deletes its files, security, recipients, upload sessions and chunks', async ({
    assert,
  }) => {
    const { user, reverseShare, share, file, session } = await makeGraph()
    await share.delete()

    assert.equal(await countWhere('files', 'share_id', share.id), 0)
    assert.equal(await countWhere('share_securities', 'share_id', share.id), 0)
    assert.equal(await countWhere('share_recipients', 'share_id', share.id), 0)
    assert.equal(await countWhere('upload_sessions', 'share_id', share.id), 0)
    assert.equal(await countWhere('upload_chunks', 'upload_session_id', session.id), 0)
    assert.equal(await countWhere('files', 'id', file.id), 0)
    assert.equal(await countWhere('users', 'id', user.id), 1)
    assert.equal(await countWhere('reverse_shares', 'id', reverseShare.id), 1)
  })

  test('deleting a reverse share deletes the shares made through it, with their files', async ({
    assert,
  }) => {
    const { user, reverseShare, share, file } = await makeGraph()
    const ownShare = await Share.create({
      id: `own-${randomBytes(4).toString('hex')}`,
      creatorId: user.id,
    })

    await reverseShare.delete()

    assert.equal(await countWhere('shares', 'id', share.id), 0)
    assert.equal(await countWhere('files', 'id', file.id), 0)
    assert.equal(await countWhere('shares', 'id', ownShare.id), 1)
    assert.equal(await countWhere('users', 'id', user.id), 1)
  })

  test('deleting a file deletes its upload session and chunks but not the share', async ({
    assert,
  }) => {
    const { share, file, session } = await makeGraph()
    await file.delete()

    assert.equal(await countWhere('upload_sessions', 'id', session.id), 0)
    assert.equal(await countWhere('upload_chunks', 'upload_session_id', session.id), 0)
    assert.equal(await countWhere('shares', 'id', share.id), 1)
  })

  test('an anonymous share has no creator and survives the deletion of users', async ({
    assert,
  }) => {
    const user = await makeUser()
    const share = await Share.create({ id: 'anonymous-one', ownerTokenHash: digest() })
    await user.delete()

    const loaded = await Share.query().where('id', share.id).preload('creator').firstOrFail()
    assert.isNull(loaded.creatorId)
    assert.isNull(loaded.creator)
  })
})

test.group('Data model | columns', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('sizes of 5 GiB round-trip exactly and come back from the models as numbers', async ({
    assert,
  }) => {
    const { reverseShare, file, session } = await makeGraph()

    const freshFile = await ShareFile.findOrFail(file.id)
    const freshSession = await UploadSession.findOrFail(session.id)
    const freshReverseShare = await ReverseShare.findOrFail(reverseShare.id)
    const chunk = await UploadChunk.query()
      .where('upload_session_id', session.id)
      .where('chunk_index', 0)
      .firstOrFail()
    assert.strictEqual(freshFile.size, FIVE_GIB)
    assert.strictEqual(freshSession.chunkSize, FIVE_GIB)
    assert.strictEqual(freshReverseShare.maxShareSize, FIVE_GIB)
    assert.strictEqual(chunk.size, FIVE_GIB)

    /* Raw queries: a string on MySQL and PostgreSQL, a number on SQLite; always the exact value. */
    const raw = await db.from('files').where('id', file.id).select('size').firstOrFail()
    assert.oneOf(typeof raw.size, ['string', 'number', 'bigint'])
    assert.equal(String(raw.size), '5368709120')

    /* Sums across files stay exact too. */
    await ShareFile.create({
      shareId: file.shareId,
      name: 'b',
      size: FIVE_GIB,
      disk: 'local',
      storageKey: 'b',
    })
    const [sum] = await db.from('files').where('share_id', file.shareId).sum('size as total')
    assert.equal(String(sum.total), String(2 * FIVE_GIB))
  })

  test('a chunk index is recorded once per upload session', async ({ assert }) => {
    const { session } = await makeGraph()

    const duplicateRefused = await failsInSavepoint((trx) =>
      UploadChunk.create({ uploadSessionId: session.id, chunkIndex: 1, size: 10 }, { client: trx })
    )
    assert.isTrue(duplicateRefused)
    const [{ total }] = await db
      .from('upload_chunks')
      .where('upload_session_id', session.id)
      .where('chunk_index', 1)
      .count('* as total')
    assert.equal(Number(total), 1)
    const otherIndex = await UploadChunk.create({
      uploadSessionId: session.id,
      chunkIndex: 2,
      size: 10,
    })
    assert.equal(otherIndex.chunkIndex, 2)
  })

  test('unique keys refuse a second upload session per file and duplicate tokens and accounts', async ({
    assert,
  }) => {
    const { user, file, share } = await makeGraph()
    const other = await makeUser()
    const refreshToken = await RefreshToken.findByOrFail('userId', user.id)
    const account = await SocialAccount.findByOrFail('userId', user.id)

    assert.isTrue(
      await failsInSavepoint((trx) =>
        UploadSession.create(
          { fileId: file.id, shareId: share.id, totalChunks: 1, chunkSize: 1 },
          { client: trx }
        )
      ),
      'second upload session for a file'
    )
    assert.isTrue(
      await failsInSavepoint((trx) =>
        RefreshToken.create(
          { userId: other.id, tokenHash: refreshToken.tokenHash, expiresAt: DateTime.now() },
          { client: trx }
        )
      ),
      'duplicate refresh token hash'
    )
    assert.isTrue(
      await failsInSavepoint((trx) =>
        SocialAccount.create(
          {
            userId: other.id,
            provider: 'github',
            providerUserId: account.providerUserId,
            providerUsername: 'x',
          },
          { client: trx }
        )
      ),
      'provider account linked to a second user'
    )
    assert.isTrue(
      await failsInSavepoint((trx) =>
        SocialAccount.create(
          {
            userId: user.id,
            provider: 'github',
            providerUserId: randomUUID(),
            providerUsername: 'y',
          },
          { client: trx }
        )
      ),
      'second github account for one user'
    )
    assert.isTrue(
      await failsInSavepoint((trx) =>
        ShareSecurity.create({ shareId: share.id, maxViews: 1 }, { client: trx })
      ),
      'second security row for a share'
    )
    assert.isTrue(
      await failsInSavepoint((trx) => Share.create({ id: share.id }, { client: trx })),
      'share id already in use'
    )
  })

  test('a share without expiry stores null and a far expiry round-trips', async ({ assert }) => {
    const never = await Share.create({ id: 'never-expires', expiration: null })
    const far = DateTime.fromISO('2099-12-31T23:59:58Z')
    const later = await Share.create({ id: 'expires-2099', expiration: far })

    const raw = await db.from('shares').where('id', never.id).select('expiration').firstOrFail()
    assert.isNull(raw.expiration)
    assert.isNull((await Share.findOrFail(never.id)).expiration)
    const loaded = await Share.findOrFail(later.id)
    assert.equal(loaded.expiration!.toMillis(), far.toMillis())
    const noExpiry = await Share.query().whereNull('expiration').whereIn('id', [never.id, later.id])
    assert.deepEqual(
      noExpiry.map((share) => share.id),
      [never.id]
    )
  })

  test('secrets and digests are never serialized', async ({ assert }) => {
    const { user, share, file } = await makeGraph()
    const security = await ShareSecurity.findByOrFail('shareId', share.id)
    const token = await RefreshToken.findByOrFail('userId', user.id)
    const apiToken = await ApiToken.findByOrFail('userId', user.id)
    const fresh = await ShareFile.findOrFail(file.id)

    assert.notProperty(security.serialize(), 'password')
    assert.notProperty(token.serialize(), 'tokenHash')
    assert.notProperty(apiToken.serialize(), 'tokenHash')
    assert.notProperty(fresh.serialize(), 'storageKey')
    assert.property(apiToken.serialize(), 'prefix')
  })
})
