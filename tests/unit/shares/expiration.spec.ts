import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import {
  LATEST_EXPIRATION,
  expirationFromInput,
  isBeyondLatest,
  isExpired,
  maximumExpiration,
  serializeExpiration,
} from '#services/shares/expiration'

const NOW = DateTime.fromISO('2025-01-31T12:00:00.000Z', { zone: 'utc' })

test.group('Shares | expiration input', () => {
  test('adds <n>-<unit> to now for every unit, singular or plural', ({ assert }) => {
    assert.equal(expirationFromInput('1-minute', NOW)!.toISO(), '2025-01-31T12:01:00.000Z')
    assert.equal(expirationFromInput('2-hours', NOW)!.toISO(), '2025-01-31T14:00:00.000Z')
    assert.equal(expirationFromInput('1-day', NOW)!.toISO(), '2025-02-01T12:00:00.000Z')
    assert.equal(expirationFromInput('2-weeks', NOW)!.toISO(), '2025-02-14T12:00:00.000Z')
    assert.equal(expirationFromInput('1-month', NOW)!.toISO(), '2025-02-28T12:00:00.000Z')
    assert.equal(expirationFromInput('3-years', NOW)!.toISO(), '2028-01-31T12:00:00.000Z')
  })

  test('"never" is no expiry, reported as epoch 0', ({ assert }) => {
    assert.isNull(expirationFromInput('never', NOW))
    assert.equal(serializeExpiration(null), '1970-01-01T00:00:00.000Z')
    assert.isFalse(isExpired(null))
  })

  test('refuses anything else', ({ assert }) => {
    for (const input of ['0-days', '1 day', '1-fortnight', '-1-day', 'forever', '']) {
      assert.throws(() => expirationFromInput(input, NOW), /Invalid expiration/)
    }
  })

  test('share.maxExpiration 0 is unlimited, otherwise a date', ({ assert }) => {
    assert.isNull(maximumExpiration('0 days', NOW))
    assert.equal(maximumExpiration('3 days', NOW)!.toISO(), '2025-02-03T12:00:00.000Z')
    assert.isTrue(isExpired(NOW.minus({ seconds: 1 }), NOW))
    assert.isFalse(isExpired(NOW.plus({ seconds: 1 }), NOW))
  })

  test('refuses an expiry past the year 9999 or past what a date can hold, never "never"', ({
    assert,
  }) => {
    for (const input of ['275761-years', '999999999-years', '7975-years', '999999999-months']) {
      assert.isTrue(isBeyondLatest(input, NOW), input)
      assert.throws(() => expirationFromInput(input, NOW), /too far in the future/)
    }
    assert.isFalse(isBeyondLatest('7974-years', NOW))
    assert.equal(expirationFromInput('7974-years', NOW)!.year, 9999)
    assert.isFalse(isBeyondLatest('999999999-minutes', NOW))
    assert.isFalse(isBeyondLatest('never', NOW))
  })

  test('a share.maxExpiration past the representable dates caps at the latest storable one', ({
    assert,
  }) => {
    assert.equal(maximumExpiration('999999999 years', NOW)!.toISO(), LATEST_EXPIRATION.toISO())
    assert.equal(maximumExpiration('20000 years', NOW)!.toISO(), LATEST_EXPIRATION.toISO())
  })
})
