import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import ReverseShare from '#models/reverse_share'
import { api, cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'
import {
  completedReverseShareUpload,
  createReverseShare,
  setCookieLine,
} from '#tests/helpers/reverse_shares'

/** Moves a reverse share's expiry into the past. */
async function expire(token: string) {
  const past = DateTime.utc().minus({ minutes: 5 }).toFormat(db.connection().dialect.dateTimeFormat)
  await db.from('reverse_shares').where('token', token).update({ share_expiration: past })
}

test.group('Reverse shares | create', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('answers 201 with exactly {token, link} and stores the options', async ({ assert }) => {
    const { cookie, user } = await shareUser()
    await setConfig('general.appUrl', 'https://tern.example.com/')
    const response = await api('POST', '/api/reverseShares', {
      cookie,
      json: {
        sendEmailNotification: true,
        maxShareSize: '5000',
        shareExpiration: '2-days',
        maxUseCount: 3,
        simplified: true,
        publicAccess: false,
        unknown: 'ignored',
      },
    })
    assert.equal(response.status, 201)
    assert.sameMembers(Object.keys(response.json), ['token', 'link'])
    assert.match(response.json.token, /^[A-Za-z0-9_-]{20,}$/)
    assert.equal(response.json.link, `https://tern.example.com/upload/${response.json.token}`)

    const stored = await ReverseShare.findByOrFail('token', response.json.token)
    assert.equal(stored.creatorId, user.id)
    assert.equal(stored.maxShareSize, 5000)
    assert.equal(stored.remainingUses, 3)
    assert.isTrue(stored.sendEmailNotification)
    assert.isTrue(stored.simplified)
    assert.isFalse(stored.publicAccess)
    assert.closeTo(stored.shareExpiration!.diffNow('hours').hours, 48, 0.1)
  })

  test('defaults: no use limit, never expires, public, not simplified, no mail', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, { maxUseCount: null })
    const stored = await ReverseShare.findByOrFail('token', token)
    assert.isNull(stored.remainingUses)
    assert.isNull(stored.shareExpiration)
    assert.isTrue(stored.publicAccess)
    assert.isFalse(stored.simplified)
    assert.isFalse(stored.sendEmailNotification)
    const absent = await api('POST', '/api/reverseShares', {
      cookie,
      json: { shareExpiration: '1-day', maxShareSize: '10' },
    })
    assert.equal(absent.status, 201)
    assert.isNull((await ReverseShare.findByOrFail('token', absent.json.token)).remainingUses)
  })

  test('refuses a max share size above share.maxSize with 400 naming the limit', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    await setConfig('share.maxSize', '1000')
    const response = await api('POST', '/api/reverseShares', {
      cookie,
      json: { shareExpiration: 'never', maxShareSize: '1001' },
    })
    assert.equal(response.status, 400)
    assert.deepEqual(response.json, {
      statusCode: 400,
      message: "Max share size can't be greater than 1000 bytes.",
      error: 'Bad Request',
    })
    const huge = await api('POST', '/api/reverseShares', {
      cookie,
      json: { shareExpiration: 'never', maxShareSize: '99999999999999999999' },
    })
    assert.equal(huge.status, 400)
    assert.equal(huge.json.message, "Max share size can't be greater than 1000 bytes.")
    const equal = await api('POST', '/api/reverseShares', {
      cookie,
      json: { shareExpiration: 'never', maxShareSize: '1000' },
    })
    assert.equal(equal.status, 201)
    assert.equal(
      await ReverseShare.query()
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      1
    )
  })

  test('caps the expiration by share.maxExpiration and refuses "never" while a maximum is set', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    await setConfig('share.maxExpiration', '2 days')
    for (const shareExpiration of ['3-days', 'never']) {
      const response = await api('POST', '/api/reverseShares', {
        cookie,
        json: { shareExpiration, maxShareSize: '10' },
      })
      assert.equal(response.status, 400, shareExpiration)
      assert.deepEqual(response.json, {
        statusCode: 400,
        message: 'Expiration date exceeds maximum expiration date',
        error: 'Bad Request',
      })
    }
    const ok = await api('POST', '/api/reverseShares', {
      cookie,
      json: { shareExpiration: '1-day', maxShareSize: '10' },
    })
    assert.equal(ok.status, 201)
  })

  test('validates the body with 400 and an array of messages, storing nothing', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const cases: Record<string, unknown>[] = [
      {},
      { maxShareSize: '10' },
      { shareExpiration: 'never' },
      { shareExpiration: '3-fortnights', maxShareSize: '10' },
      { shareExpiration: 'never', maxShareSize: '0' },
      { shareExpiration: 'never', maxShareSize: '-5' },
      { shareExpiration: 'never', maxShareSize: '1.5' },
      { shareExpiration: 'never', maxShareSize: 'lots' },
      { shareExpiration: 'never', maxShareSize: '10', maxUseCount: 0 },
      { shareExpiration: 'never', maxShareSize: '10', maxUseCount: 1.5 },
      { shareExpiration: 'never', maxShareSize: '10', publicAccess: 'maybe' },
    ]
    for (const body of cases) {
      const response = await api('POST', '/api/reverseShares', { cookie, json: body })
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.json.error, 'Bad Request')
      assert.isArray(response.json.message)
    }
    assert.equal(
      await ReverseShare.query()
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      0
    )
  })

  test('needs a signed-in user (401) and refuses cross-site cookie requests (403)', async ({
    assert,
  }) => {
    const anonymous = await api('POST', '/api/reverseShares', {
      json: { shareExpiration: 'never', maxShareSize: '10' },
    })
    assert.equal(anonymous.status, 401)
    const { cookie } = await shareUser()
    const crossSite = await api('POST', '/api/reverseShares', {
      cookie,
      headers: { 'sec-fetch-site': 'cross-site' },
      json: { shareExpiration: 'never', maxShareSize: '10' },
    })
    assert.equal(crossSite.status, 403)
    assert.equal(
      await ReverseShare.query()
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      0
    )
  })
})

test.group('Reverse shares | get by token', (group) => {
  group.each.teardown(() => cleanupShareTests())

  test('answers 200 with exactly {id, maxShareSize, shareExpiration, token, simplified} to anyone', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, {
      maxShareSize: '4096',
      simplified: true,
      shareExpiration: '1-hour',
    })
    const response = await api('GET', `/api/reverseShares/${token}`)
    assert.equal(response.status, 200)
    assert.sameMembers(Object.keys(response.json), [
      'id',
      'maxShareSize',
      'shareExpiration',
      'token',
      'simplified',
    ])
    const stored = await ReverseShare.findByOrFail('token', token)
    assert.deepEqual(response.json, {
      id: stored.id,
      maxShareSize: '4096',
      shareExpiration: stored.shareExpiration!.toUTC().toISO(),
      token,
      simplified: true,
    })
    const never = await createReverseShare(cookie)
    const neverResponse = await api('GET', `/api/reverseShares/${never.token}`)
    assert.equal(neverResponse.json.shareExpiration, '1970-01-01T00:00:00.000Z')
    assert.isFalse(neverResponse.json.simplified)
  })

  test('sets the reverse_share_token cookie: HttpOnly, SameSite=Strict, Path=/api/shares, at most an hour', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const { token } = await createReverseShare(cookie, { shareExpiration: '10-minutes' })
    const response = await api('GET', `/api/reverseShares/${token}`)
    assert.equal(response.cookies.reverse_share_token, token)
    const line = setCookieLine(response, 'reverse_share_token')!
    assert.match(line, /HttpOnly/i)
    assert.match(line, /SameSite=Strict/i)
    assert.match(line, /Path=\/api\/shares(;|$)/)
    const maxAge = Number(/Max-Age=(\d+)/i.exec(line)![1])
    assert.isAtMost(maxAge, 600, 'never outlives the reverse share')
    assert.isAbove(maxAge, 590)

    const long = await createReverseShare(cookie)
    const longLine = setCookieLine(
      await api('GET', `/api/reverseShares/${long.token}`),
      'reverse_share_token'
    )!
    assert.equal(Number(/Max-Age=(\d+)/i.exec(longLine)![1]), 3600)
  })

  test('answers 404 "Reverse share token not found" for unknown, expired and used-up tokens', async ({
    assert,
  }) => {
    const { cookie } = await shareUser()
    const expired = await createReverseShare(cookie, { shareExpiration: '1-day' })
    await expire(expired.token)
    const usedUp = await createReverseShare(cookie, { maxUseCount: 1 })
    await completedReverseShareUpload(usedUp.token, { 'a.txt': 'a' })
    for (const token of ['unknown-token', expired.token, usedUp.token, 'bad%20token']) {
      const response = await api('GET', `/api/reverseShares/${token}`)
      assert.equal(response.status, 404, token)
      assert.deepEqual(response.json, {
        statusCode: 404,
        message: 'Reverse share token not found',
        error: 'Not Found',
      })
      assert.isUndefined(response.cookies.reverse_share_token)
    }
  })
})
