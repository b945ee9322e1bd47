import { test } from '@japa/runner'
import {
  decodeTokenPayload,
  needsRefresh,
  readCookie,
  REFRESH_INTERVAL_MS,
  REFRESH_THRESHOLD_MS,
  tokenExpiry,
} from '../../inertia/lib/session.js'

/** A token of three parts whose payload is `payload` (the signature is not checked by the client). */
function token(payload: unknown, header: unknown = { alg: 'HS256', typ: 'JWT' }) {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part(header)}.${part(payload)}.c2lnbmF0dXJl`
}

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0)
const seconds = (ms: number) => Math.floor(ms / 1000)

test.group('Session | token decoding', () => {
  test('a well-formed token gives its payload and expiry in milliseconds', ({ assert }) => {
    const jwt = token({ sub: 'u1', exp: seconds(NOW) + 900 })
    assert.deepEqual(decodeTokenPayload(jwt), { sub: 'u1', exp: seconds(NOW) + 900 })
    assert.equal(tokenExpiry(jwt), NOW + 900_000)
  })

  test('payloads with non-ASCII text and base64url characters are decoded', ({ assert }) => {
    const jwt = token({ email: 'zoë@exämple.org', filler: '???>>>', exp: 1 })
    assert.equal(decodeTokenPayload(jwt)?.email, 'zoë@exämple.org')
  })

  test('tokens without three parts or without a JSON object payload are refused', ({ assert }) => {
    for (const bad of [
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      `x.${Buffer.from('not json').toString('base64url')}.y`,
      token([1, 2, 3]),
      token('just a string'),
      token(null),
      'a..c',
    ]) {
      assert.isNull(decodeTokenPayload(bad), bad)
      assert.isNull(tokenExpiry(bad), bad)
    }
    assert.isNull(decodeTokenPayload(undefined))
    assert.isNull(decodeTokenPayload(null))
  })

  test('a payload without a numeric exp has no expiry', ({ assert }) => {
    assert.isNull(tokenExpiry(token({ sub: 'u1' })))
    assert.isNull(tokenExpiry(token({ exp: '123' })))
  })
})

test.group('Session | refresh threshold', () => {
  test('the thresholds are the spec constants: 2 minutes and every 120 s', ({ assert }) => {
    assert.equal(REFRESH_THRESHOLD_MS, 120_000)
    assert.equal(REFRESH_INTERVAL_MS, 120_000)
  })

  test('a token expiring in more than 2 minutes is kept', ({ assert }) => {
    assert.isFalse(needsRefresh(token({ exp: seconds(NOW) + 15 * 60 }), NOW))
    assert.isFalse(needsRefresh(token({ exp: seconds(NOW) + 121 }), NOW))
  })

  test('a token expiring within 2 minutes, or expired, is refreshed', ({ assert }) => {
    assert.isTrue(needsRefresh(token({ exp: seconds(NOW) + 119 }), NOW))
    assert.isTrue(needsRefresh(token({ exp: seconds(NOW) + 1 }), NOW))
    assert.isTrue(needsRefresh(token({ exp: seconds(NOW) - 3600 }), NOW))
  })

  test('exactly 2 minutes before expiry is not yet within the threshold', ({ assert }) => {
    assert.isFalse(needsRefresh(token({ exp: seconds(NOW) + 120 }), NOW))
    assert.isTrue(needsRefresh(token({ exp: seconds(NOW) + 120 }), NOW + 1))
  })

  test('a malformed token is refreshed; no token means no session to refresh', ({ assert }) => {
    assert.isTrue(needsRefresh('garbage', NOW))
    assert.isFalse(needsRefresh(null, NOW))
    assert.isFalse(needsRefresh('', NOW))
  })
})

test.group('Session | cookies', () => {
  test('reads one cookie of a cookie header', ({ assert }) => {
    const header = 'language=de-DE; access_token=a.b.c; color_scheme=dark'
    assert.equal(readCookie(header, 'access_token'), 'a.b.c')
    assert.equal(readCookie(header, 'language'), 'de-DE')
    assert.isNull(readCookie(header, 'refresh_token'))
    assert.isNull(readCookie('', 'access_token'))
    assert.equal(readCookie('x_access_token=1; access_token=2', 'access_token'), '2')
  })
})
