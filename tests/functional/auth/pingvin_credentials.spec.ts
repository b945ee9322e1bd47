/**
 * Credentials carried over from Pingvin Share
 * (docs/design/pingvin_import.md §4 and §5): argon2id password hashes made by
 * the `argon2` package (the one Pingvin used) keep working and become scrypt
 * on their first correct use, for accounts and share passwords alike; TOTP
 * secrets of 10 bytes (Pingvin's otplib 12 default, 16 Base32 characters)
 * still sign in, once per code.
 *
 * The rows are written the way the importer writes them (query builder, hash
 * kept as is), then everything goes through the real HTTP routes.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import argon2 from 'argon2'
import { DateTime } from 'luxon'
import User from '#models/user'
import { verifyUserPassword } from '#services/auth/password_hashes'
import { accessCookieFor, awayFromTotpStepEnd, uniqueIp } from '#tests/helpers/auth'
import { base32 } from '#tests/helpers/pingvin_fixture'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  shareToken,
  shareUser,
} from '#tests/helpers/shares'

const PASSWORD = 'pingvin-password'

/** A timestamp in the connection's format. */
function now(): string {
  return DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
}

/** Inserts a user as the Pingvin import does: the argon2id hash is stored as is, never through the model. */
async function insertPingvinUser(fields: { password: string; totpSecret?: string }) {
  const suffix = randomBytes(4).toString('hex')
  const row = {
    id: randomUUID(),
    username: `pingvin_${suffix}`,
    email: `pingvin_${suffix}@example.com`,
    password: fields.password,
    is_admin: false,
    totp_secret: fields.totpSecret ?? null,
    totp_verified: fields.totpSecret !== undefined,
    created_at: now(),
    updated_at: now(),
  }
  await db.table('users').insert(row)
  return row
}

async function storedPassword(userId: string): Promise<string> {
  const row = await db.from('users').where('id', userId).select('password').firstOrFail()
  return row.password
}

/**
 * The 6-digit TOTP code (RFC 6238: HMAC-SHA1, 30 s) of `key` at `epochSeconds`,
 * computed here with node:crypto so the check does not rest on otplib.
 */
function totpAt(key: Buffer, epochSeconds: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(epochSeconds / 30)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const offset = mac[mac.length - 1] & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

test.group('Pingvin credentials | argon2id account passwords', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an argon2id account signs in, is rehashed to scrypt, and signs in again', async ({
    client,
    assert,
  }) => {
    const legacy = await argon2.hash(PASSWORD, { type: argon2.argon2id })
    assert.match(legacy, /^\$argon2id\$v=19\$/)
    const user = await insertPingvinUser({ password: legacy })
    const ip = uniqueIp()

    const first = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', ip)
      .json({ username: user.username, password: PASSWORD })
    first.assertStatus(200)
    assert.sameMembers(Object.keys(first.body()), ['accessToken', 'refreshToken'])

    const renewed = await storedPassword(user.id)
    assert.match(renewed, /^\$scrypt\$/)
    assert.isFalse(await argon2.verify(legacy, 'not-the-password'))

    const second = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', ip)
      .json({ email: user.email, password: PASSWORD })
    second.assertStatus(200)
    assert.equal(await storedPassword(user.id), renewed, 'a scrypt hash is not rehashed again')

    const wrongAfter = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', ip)
      .json({ username: user.username, password: 'wrong-password' })
    wrongAfter.assertStatus(401)
  })

  test('a wrong password is refused and leaves the argon2id hash untouched', async ({
    client,
    assert,
  }) => {
    const legacy = await argon2.hash(PASSWORD, { type: argon2.argon2id })
    const user = await insertPingvinUser({ password: legacy })

    const wrong = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', uniqueIp())
      .json({ username: user.username, password: 'wrong-password' })
    wrong.assertStatus(401)
    wrong.assertBody({ statusCode: 401, message: 'Wrong email or password', error: 'Unauthorized' })
    assert.equal(await storedPassword(user.id), legacy)
  })

  test('the argon2 parameters are read from each hash (small m, t and p here)', async ({
    client,
    assert,
  }) => {
    const legacy = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 1024,
      timeCost: 2,
      parallelism: 1,
    })
    assert.include(legacy, 'm=1024')
    const user = await insertPingvinUser({ password: legacy })
    const signIn = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', uniqueIp())
      .json({ username: user.username, password: PASSWORD })
    signIn.assertStatus(200)
    assert.match(await storedPassword(user.id), /^\$scrypt\$/)
  })

  test('the other password checks of an account (TOTP set-up) accept and rehash an argon2id hash too', async ({
    client,
    assert,
  }) => {
    const legacy = await argon2.hash(PASSWORD, { type: argon2.argon2id })
    const user = await insertPingvinUser({ password: legacy })
    const cookie = await accessCookieFor(await User.findOrFail(user.id))

    const wrong = await client
      .post('/api/auth/totp/enable')
      .header('Cookie', cookie)
      .json({ password: 'wrong-password' })
    wrong.assertStatus(403)
    wrong.assertBody({ statusCode: 403, message: 'Invalid password', error: 'Forbidden' })
    assert.equal(await storedPassword(user.id), legacy)

    const right = await client
      .post('/api/auth/totp/enable')
      .header('Cookie', cookie)
      .json({ password: PASSWORD })
    right.assertStatus(201)
    assert.match(await storedPassword(user.id), /^\$scrypt\$/)
    const stored = await User.findOrFail(user.id)
    assert.equal(stored.totpSecret, right.body().totpSecret, 'the set-up saved after the rehash')
    assert.isTrue(await verifyUserPassword(stored, PASSWORD))
  })
})

test.group('Pingvin credentials | argon2id share passwords', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('a share whose password hash is argon2id accepts the right password and is rehashed', async ({
    assert,
  }) => {
    const owner = await shareUser()
    const share = await createCompletedShare({
      cookie: owner.cookie,
      security: { password: 'placeholder' },
      files: { 'a.txt': 'hello' },
    })
    const legacy = await argon2.hash('share-secret', {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 2,
    })
    await db.from('share_securities').where('share_id', share.id).update({ password: legacy })
    const security = () => db.from('share_securities').where('share_id', share.id).firstOrFail()

    const wrong = await shareToken(share.id, 'wrong-secret')
    assert.equal(wrong.response.status, 403)
    assert.deepEqual(wrong.response.json, {
      statusCode: 403,
      message: 'Wrong password',
      error: 'wrong_password',
    })
    assert.equal((await security()).password, legacy)

    const right = await shareToken(share.id, 'share-secret')
    assert.equal(right.response.status, 200)
    assert.isString(right.response.json.token)
    const renewed = (await security()).password
    assert.match(renewed, /^\$scrypt\$/)

    const read = await api('GET', `/api/shares/${share.id}`, { cookie: right.cookie })
    assert.equal(read.status, 200)
    assert.equal(read.json.id, share.id)

    const again = await shareToken(share.id, 'share-secret')
    assert.equal(again.response.status, 200)
    assert.equal((await security()).password, renewed)
    const oldPlaceholder = await shareToken(share.id, 'placeholder')
    assert.equal(oldPlaceholder.response.status, 403)
  })
})

test.group('Pingvin credentials | 10-byte TOTP secrets', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the RFC 6238 code helper of this file is right', ({ assert }) => {
    // RFC 6238 appendix B, SHA-1, T = 59 s: 94287082 (8 digits), so 287082 with 6.
    assert.equal(totpAt(Buffer.from('12345678901234567890'), 59), '287082')
  })

  test('a user with a 16-character Base32 secret signs in with TOTP; the code cannot be replayed', async ({
    client,
    assert,
  }) => {
    const key = randomBytes(10)
    const secret = base32(key)
    assert.lengthOf(secret, 16)
    const legacy = await argon2.hash(PASSWORD, { type: argon2.argon2id })
    const user = await insertPingvinUser({ password: legacy, totpSecret: secret })
    const ip = uniqueIp()
    const loginTokenOf = async () => {
      const response = await client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', ip)
        .json({ username: user.username, password: PASSWORD })
      response.assertStatus(200)
      assert.sameMembers(Object.keys(response.body()), ['loginToken'])
      return response.body().loginToken as string
    }

    await awayFromTotpStepEnd()
    const code = totpAt(key, Date.now() / 1000)
    const wrongCode = code === '000000' ? '000001' : '000000'

    const loginToken = await loginTokenOf()
    const wrong = await client
      .post('/api/auth/signIn/totp')
      .header('X-Forwarded-For', ip)
      .json({ loginToken, totp: wrongCode })
    wrong.assertStatus(400)
    wrong.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    const signedIn = await client
      .post('/api/auth/signIn/totp')
      .header('X-Forwarded-For', ip)
      .json({ loginToken, totp: code })
    signedIn.assertStatus(200)
    assert.sameMembers(Object.keys(signedIn.body()), ['accessToken', 'refreshToken'])
    const me = await client
      .get('/api/users/me')
      .header('Cookie', `access_token=${signedIn.body().accessToken}`)
    me.assertStatus(200)
    assert.equal(me.body().id, user.id)

    const replay = await client
      .post('/api/auth/signIn/totp')
      .header('X-Forwarded-For', ip)
      .json({ loginToken: await loginTokenOf(), totp: code })
    replay.assertStatus(400)
    replay.assertBody({ statusCode: 400, message: 'Invalid code', error: 'Bad Request' })

    const stored = await db.from('users').where('id', user.id).firstOrFail()
    assert.equal(stored.totp_secret, secret, 'the imported secret is kept')
  })
})
