/**
 * Bad input that reached a 500 or a wrong answer. Each answer must be a 4xx
 * with a message, and nothing is stored. Runs on SQLite and MySQL
 * (`DB_CONNECTION=mysql`), where out-of-range numbers and years failed.
 */
import { test } from '@japa/runner'
import ApiToken from '#models/api_token'
import ReverseShare from '#models/reverse_share'
import Share from '#models/share'
import User from '#models/user'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  createShare,
  newShareId,
  setConfig,
  shareUser,
  type RawResponse,
} from '#tests/helpers/shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { uniqueIp } from '#tests/helpers/auth'
import db from '@adonisjs/lucid/services/db'

/** Sends `raw` as a JSON body (so lone surrogates travel as `\ud800` escapes). */
function rawJson(method: string, path: string, raw: string, cookie: string | null = null) {
  return api(method, path, { body: raw, cookie, headers: { 'content-type': 'application/json' } })
}

/** Asserts a 4xx of the contract's shape whose message contains `pattern`. */
function assertRefused(assert: any, response: RawResponse, status: number, pattern: RegExp) {
  assert.equal(response.status, status, response.bytes.toString())
  assert.equal(response.json.statusCode, status)
  assert.match([response.json.message].flat().join(' | '), pattern)
}

const counts = async () => ({
  shares: (await Share.query().count('* as n'))[0].$extras.n,
  reverseShares: (await ReverseShare.query().count('* as n'))[0].$extras.n,
  users: (await User.query().count('* as n'))[0].$extras.n,
  apiTokens: (await ApiToken.query().count('* as n'))[0].$extras.n,
})

test.group('Faults | bad input is a 4xx with a message, nothing stored', (group) => {
  group.teardown(cleanCommittedData)
  group.each.teardown(() => cleanupShareTests())

  test('an expiration past the year 9999 is refused on create, edit and reverse shares', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const existing = await createShare(cookie, { id: newShareId(), recipients: [] })
    const before = await counts()
    for (const expiration of ['275761-years', '10000-years', '999999999-months']) {
      const created = await api('POST', '/api/shares', {
        cookie,
        json: { id: newShareId(), expiration, recipients: [] },
      })
      assertRefused(assert, created, 400, /too far in the future/)
      const edited = await api('PATCH', `/api/shares/${existing.json.id}`, {
        cookie,
        json: { expiration },
      })
      assertRefused(assert, edited, 400, /too far in the future/)
      const reverse = await api('POST', '/api/reverseShares', {
        cookie,
        json: { shareExpiration: expiration, maxShareSize: '1000' },
      })
      assertRefused(assert, reverse, 400, /shareExpiration is too far in the future/)
    }
    assert.deepEqual(await counts(), before)
    assert.isNull(
      (await Share.findOrFail(existing.json.id)).expiration,
      'the edited share still never expires'
    )
  })

  test('share.maxExpiration is not bypassed by an unrepresentable expiration', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    await setConfig('share.maxExpiration', '2 days')
    const response = await api('POST', '/api/shares', {
      cookie,
      json: { id: newShareId(), expiration: '275761-years', recipients: [] },
    })
    assertRefused(assert, response, 400, /too far in the future|exceeds maximum/)
    assert.equal((await counts()).shares, 0)
  })

  test('a lone surrogate in an e-mail address is a 400 on every route that takes one', async ({
    assert,
  }) => {
    const user = await shareUser()
    const admin = await shareUser({ admin: true })
    const victim = await shareUser()
    const before = await counts()
    const email = '"a\\ud800@example.com"'
    const calls: [string, string, string, string | null][] = [
      [
        'POST',
        '/api/auth/signUp',
        `{"email":${email},"username":"surrogate_1","password":"password123"}`,
        null,
      ],
      ['PATCH', '/api/users/me', `{"email":${email}}`, user.cookie],
      [
        'POST',
        '/api/users',
        `{"email":${email},"username":"surrogate_2","password":"password123"}`,
        admin.cookie,
      ],
      ['PATCH', `/api/users/${victim.user.id}`, `{"email":${email}}`, admin.cookie],
      ['POST', '/api/configs/admin/testEmail', `{"email":${email}}`, admin.cookie],
      [
        'POST',
        '/api/shares',
        `{"id":"${newShareId()}","expiration":"never","recipients":[${email}]}`,
        user.cookie,
      ],
    ]
    for (const [method, path, body, cookie] of calls) {
      assertRefused(
        assert,
        await rawJson(method, path, body, cookie),
        400,
        /"[\w.]*email[\w.]*"|recipients.*not valid Unicode|not valid Unicode/
      )
    }
    assert.deepEqual(await counts(), before)
    assert.equal((await User.findOrFail(victim.user.id)).email, victim.user.email)
  })

  test('a provider name with space, quote or U+202E is a 403, with NUL a 400, never a 500', async ({
    assert,
  }) => {
    for (const name of ['%20', 'a%20b', '%22', '%E2%80%AE', 'x%E2%80%AEbuhtig', "'"]) {
      for (const route of ['callback', 'auth']) {
        const response = await api('GET', `/api/oauth/${route}/${name}`)
        assertRefused(assert, response, 403, /not enabled/)
      }
    }
    // A NUL in any address is refused before routing reaches a controller (body_guard_middleware).
    for (const name of ['%00', 'git%00hub']) {
      for (const route of ['callback', 'auth']) {
        const response = await api('GET', `/api/oauth/${route}/${name}`)
        assertRefused(assert, response, 400, /address contains a NUL character/)
      }
    }
  })

  test('maxViews past an INTEGER column and years of 10000 are 400s, also on MySQL', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const create = (security: unknown, expiration = 'never') =>
      api('POST', '/api/shares', {
        cookie,
        json: { id: newShareId(), expiration, recipients: [], security },
      })
    assertRefused(assert, await create({ maxViews: 2_147_483_648 }), 400, /maxViews/)
    assertRefused(assert, await create({ maxViews: 1e20 }), 400, /maxViews/)
    assertRefused(assert, await create(null, '7975-years'), 400, /too far in the future/)
    const token = await api('POST', '/api/users/me/apiTokens', {
      cookie,
      json: { name: 'far', expiresAt: '+010000-01-01T00:00:00.000Z' },
    })
    assertRefused(assert, token, 400, /expiresAt/)
    assert.equal((await counts()).shares, 0)
    assert.equal((await counts()).apiTokens, 0)
    const largest = await create({ maxViews: 2_147_483_647 }, '7970-years')
    assert.equal(largest.status, 201, 'the largest storable values are accepted')
  })

  test('deeply nested JSON is a 400 that says so, whatever the depth', async ({ assert }) => {
    const { cookie } = await shareUser()
    for (const depth of [33, 5_000, 200_000]) {
      const body = '{"id":' + '['.repeat(depth) + ']'.repeat(depth) + '}'
      const response = await rawJson('POST', '/api/shares', body, cookie)
      assertRefused(assert, response, 400, /nested too deeply/)
      assert.notMatch(response.bytes.toString(), /call stack/i)
    }
    const broken = await rawJson('POST', '/api/auth/signIn', '{"username": "a", ')
    assertRefused(assert, broken, 400, /not valid JSON/)
    assert.equal((await counts()).shares, 0)
  })

  test('a Range past 2^64 is a 416, and a 416 or a 304 counts no view', async ({ assert }) => {
    const { cookie } = await shareUser()
    const share = await createCompletedShare({
      cookie,
      files: { 'a.txt': 'hello' },
      security: { maxViews: 5 },
    })
    const path = `/api/shares/${share.id}/files/${share.fileIds['a.txt']}`
    const viewsBefore = (await Share.findOrFail(share.id)).views
    for (const range of ['bytes=18446744073709551616-', 'bytes=5-', `bytes=${'9'.repeat(300)}-`]) {
      const response = await api('GET', path, { headers: { range } })
      assert.equal(response.status, 416, range)
      assert.equal(response.headers.get('content-range'), 'bytes */5')
      assert.include(response.headers.get('content-type') ?? '', 'json')
      assert.equal(response.json.message, 'Range Not Satisfiable')
    }
    const etag = (await api('HEAD', path)).headers.get('etag')!
    assert.equal((await api('GET', path, { headers: { 'if-none-match': etag } })).status, 304)
    assert.equal(
      (await Share.findOrFail(share.id)).views,
      viewsBefore,
      'no view was counted for a 416, HEAD or 304'
    )
    const served = await api('GET', path, { headers: { range: 'bytes=1-18446744073709551616' } })
    assert.equal(served.status, 206)
    assert.equal(served.bytes.toString(), 'ello')
    assert.equal(
      (await Share.findOrFail(share.id)).views,
      viewsBefore + 1,
      'a served range counts one view'
    )
  })

  test('chunk numbers other than plain decimal digits are 400, nothing stored', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const id = newShareId()
    await createShare(cookie, { id, recipients: [] })
    const cases = [
      ['', '2'],
      ['0x10', '20'],
      ['1e1', '20'],
      [' 0', '2'],
      ['0', '0x10'],
      ['0', ''],
      ['-0', '2'],
    ]
    for (const [chunkIndex, totalChunks] of cases) {
      const query = new URLSearchParams({ name: 'a.txt', chunkIndex, totalChunks })
      const response = await api('POST', `/api/shares/${id}/files?${query}`, { cookie, body: 'x' })
      assertRefused(assert, response, 400, /chunkIndex|totalChunks/)
    }
    const share = await Share.query().where('id', id).preload('files').firstOrFail()
    assert.lengthOf(share.files, 0)
  })

  test('maxViews true, "5" or [5] is a 400, not a limit of 1', async ({ assert }) => {
    const { cookie } = await shareUser()
    for (const maxViews of [true, '5', [5]]) {
      const response = await api('POST', '/api/shares', {
        cookie,
        json: { id: newShareId(), expiration: 'never', recipients: [], security: { maxViews } },
      })
      assertRefused(assert, response, 400, /maxViews/)
    }
    assert.equal((await counts()).shares, 0)
  })

  test('a reset request for an address no account can have answers 202 and stores nothing', async ({
    assert,
  }) => {
    const outboxRows = async () => (await db.from('notification_deliveries').count('* as n'))[0].n
    const before = Number(await outboxRows())
    for (const email of ['x'.repeat(4000) + '@example.com', 'no-at-sign', 'a%20b@c%20d']) {
      const response = await api('POST', `/api/auth/resetPassword/${email}`, {
        headers: { 'x-forwarded-for': uniqueIp() },
      })
      assert.equal(response.status, 202, email.slice(0, 40))
    }
    // A NUL is refused in any address (400), which tells nothing about accounts either.
    const nul = await api('POST', '/api/auth/resetPassword/%00', {
      headers: { 'x-forwarded-for': uniqueIp() },
    })
    assertRefused(assert, nul, 400, /NUL character/)
    assert.equal(Number(await outboxRows()), before, 'no outbox row for junk addresses')
    const real = await api('POST', '/api/auth/resetPassword/nobody%40example.com', {
      headers: { 'x-forwarded-for': uniqueIp() },
    })
    assert.equal(real.status, 202)
    assert.equal(
      Number(await outboxRows()),
      before + 1,
      'a plausible address is stored like any other'
    )
  })
})
