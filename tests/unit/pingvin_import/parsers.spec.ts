import { test } from '@japa/runner'
import {
  parseBoolean,
  parseCount,
  parseExpiration,
  parseOptionalText,
  parseSize,
  parseText,
  parseTimestamp,
  PingvinValueError,
} from '#services/pingvin_import/parsers'
import { uuidV5 } from '#services/pingvin_import/importer'

test.group('Pingvin import | value parsers', () => {
  test('timestamps: milliseconds, seconds, SQL text (UTC) and ISO-8601', ({ assert }) => {
    const iso = '2024-05-01T12:34:56.000Z'
    assert.equal(parseTimestamp(1714566896000).toISO(), iso)
    assert.equal(parseTimestamp('1714566896000').toISO(), iso)
    assert.equal(parseTimestamp(1714566896n * 1000n).toISO(), iso)
    assert.equal(parseTimestamp(1714566896).toISO(), iso)
    assert.equal(parseTimestamp('1714566896').toISO(), iso)
    assert.equal(parseTimestamp('2024-05-01 12:34:56').toISO(), iso)
    assert.equal(parseTimestamp('2024-05-01 12:34:56.000').toISO(), iso)
    assert.equal(parseTimestamp('2024-05-01T12:34:56Z').toISO(), iso)
    assert.equal(parseTimestamp('2024-05-01T14:34:56+02:00').toISO(), iso)
    // 10^11 is the boundary: below it seconds (up to year 5138), from it milliseconds (1973 on)
    assert.equal(parseTimestamp(99_999_999_999).year, 5138)
    assert.equal(parseTimestamp(100_000_000_000).year, 1973)
  })

  test('timestamps that cannot be read are refused with the column and the value', ({ assert }) => {
    for (const value of [
      'next tuesday',
      '',
      '2024-13-45 99:00:00',
      -5,
      1.5,
      null,
      undefined,
      {},
      '12abc',
    ]) {
      assert.throws(() => parseTimestamp(value, 'createdAt'), /^createdAt: unreadable timestamp/)
    }
    assert.instanceOf(
      catchError(() => parseTimestamp('x')),
      PingvinValueError
    )
  })

  test('expiration: epoch 0 is "never" (null), anything else a date', ({ assert }) => {
    assert.isNull(parseExpiration(0))
    assert.isNull(parseExpiration('0'))
    assert.isNull(parseExpiration('1970-01-01 00:00:00'))
    assert.equal(parseExpiration(1714566896000)!.toMillis(), 1714566896000)
  })

  test('booleans: 0/1, "0"/"1", "true"/"false"; the fallback only when the column is missing', ({
    assert,
  }) => {
    for (const value of [1, '1', 'true', true, 1n]) assert.isTrue(parseBoolean(value))
    for (const value of [0, '0', 'false', false, 0n]) assert.isFalse(parseBoolean(value))
    assert.isTrue(parseBoolean(undefined, 'publicAccess', true))
    assert.isFalse(parseBoolean(undefined, 'simplified', false))
    assert.throws(
      () => parseBoolean(null, 'simplified', false),
      /simplified: unreadable boolean null/
    )
    assert.throws(() => parseBoolean('yes', 'isAdmin'), /isAdmin: unreadable boolean "yes"/)
    assert.throws(() => parseBoolean(undefined, 'isAdmin'), /isAdmin: unreadable boolean "missing"/)
  })

  test('sizes: decimal byte counts up to 2^53', ({ assert }) => {
    assert.equal(parseSize('0'), 0)
    assert.equal(parseSize('1000000000'), 1_000_000_000)
    assert.equal(parseSize(' 12 '), 12)
    assert.equal(parseSize(5_000_000_000), 5_000_000_000)
    assert.equal(parseSize(String(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER)
    assert.throws(
      () => parseSize('9007199254740992', 'maxShareSize'),
      /maxShareSize: size 9007199254740992 is above 2\^53/
    )
    for (const value of ['-1', '1.5', '1e9', '', 'ten', null]) {
      assert.throws(() => parseSize(value, 'size'), /^size: unreadable size/)
    }
  })

  test('counts and text', ({ assert }) => {
    assert.equal(parseCount(7, 'views'), 7)
    assert.equal(parseCount('3', 'views'), 3)
    assert.throws(() => parseCount(-1, 'views'), /views: unreadable count -1/)
    assert.throws(() => parseCount(2 ** 31, 'maxViews'), /maxViews/)
    assert.equal(parseText('alice', 'username', 32), 'alice')
    assert.throws(
      () => parseText('a'.repeat(33), 'username', 32),
      /username: longer than 32 characters/
    )
    assert.throws(() => parseText('', 'username', 32), /username: missing or not text/)
    assert.isNull(parseOptionalText(null, 'name', 255))
    assert.isNull(parseOptionalText(undefined, 'name', 255))
    assert.throws(() => parseOptionalText(5, 'name', 255), /name: not text/)
  })

  test('LDAP link ids are uuid v5 of the DN: stable across runs, distinct per DN', ({ assert }) => {
    const dn = 'uid=ada,ou=people,dc=example,dc=org'
    assert.equal(uuidV5(dn), uuidV5(dn))
    assert.notEqual(uuidV5(dn), uuidV5(`${dn}x`))
    assert.match(
      uuidV5(dn),
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    )
    // RFC 4122 appendix B example (DNS namespace, "www.example.com"), as computed by other v5 implementations
    assert.equal(
      uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
      '2ed6657d-e927-568b-95e1-2665a8aea6a2'
    )
  })
})

function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return null
}
