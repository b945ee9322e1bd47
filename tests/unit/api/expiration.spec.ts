/**
 * types/api/expiration.ts, the one reading of expiration inputs (Pingvin's
 * `"<n>-<unit>"` / `"never"`) and timespan settings (`"7 days"`) that the
 * server's validators and config values and the browser's upload and share
 * edit forms share.
 */
import { test } from '@japa/runner'
import {
  EXPIRATION_PATTERN,
  TIMESPAN_UNITS,
  addTimespan,
  exceedsMaximum,
  expirationInput,
  formatTimespan,
  maximumExpiry,
  maximumTimespan,
  parseExpiration,
  parseTimespan,
} from '#api/expiration'

test.group('API | expiration inputs and timespans', () => {
  test('expiration inputs: "never" or <n>-<unit> with n from 1, unit singular or plural', ({
    assert,
  }) => {
    assert.isNull(parseExpiration('never'))
    assert.deepEqual(parseExpiration('1-day'), { value: 1, unit: 'day' })
    assert.deepEqual(parseExpiration('1-days'), { value: 1, unit: 'day' })
    assert.deepEqual(parseExpiration('2-weeks'), { value: 2, unit: 'week' })
    assert.deepEqual(parseExpiration('999999999-years'), { value: 999_999_999, unit: 'year' })
    for (const unit of TIMESPAN_UNITS) {
      assert.deepEqual(parseExpiration(`3-${unit}`), { value: 3, unit })
      assert.deepEqual(parseExpiration(`3-${unit}s`), { value: 3, unit })
    }
    for (const input of [
      '',
      '0',
      '0-days',
      '01-day',
      '-1-day',
      '1000000000-days',
      '1.5-days',
      '1 day',
      '1-day ',
      ' never',
      'Never',
      'NEVER',
      '1-Day',
      '1-fortnight',
      '1-seconds',
      '1-dayss',
      'day',
      '7',
    ]) {
      assert.isUndefined(parseExpiration(input), input)
      assert.isFalse(EXPIRATION_PATTERN.test(input), input)
    }
  })

  test('the input of a timespan is singular for 1, plural otherwise, and reads back', ({
    assert,
  }) => {
    assert.equal(expirationInput(null), 'never')
    assert.equal(expirationInput({ value: 1, unit: 'day' }), '1-day')
    assert.equal(expirationInput({ value: 3, unit: 'week' }), '3-weeks')
    for (const unit of TIMESPAN_UNITS) {
      for (const value of [1, 2, 21]) {
        const input = expirationInput({ value, unit })
        assert.match(input, EXPIRATION_PATTERN)
        assert.deepEqual(parseExpiration(input), { value, unit })
      }
    }
  })

  test('timespan settings: <n> <unit>, n from 0, unit singular or plural, stored plural', ({
    assert,
  }) => {
    assert.deepEqual(parseTimespan('3 months'), { value: 3, unit: 'month' })
    assert.deepEqual(parseTimespan('1 day'), { value: 1, unit: 'day' })
    assert.deepEqual(parseTimespan(' 7 days '), { value: 7, unit: 'day' })
    assert.deepEqual(parseTimespan('0 years'), { value: 0, unit: 'year' })
    for (const unit of TIMESPAN_UNITS) {
      assert.deepEqual(parseTimespan(`2 ${unit}s`), { value: 2, unit })
    }
    for (const text of [
      '',
      null,
      undefined,
      'never',
      '3',
      'months',
      '3months',
      '3  months',
      '-1 days',
      '1.5 hours',
      '2 seconds',
      '2 fortnights',
      '3-months',
      '1234567890 days',
    ]) {
      assert.isNull(parseTimespan(text), String(text))
    }
    assert.equal(formatTimespan({ value: 7, unit: 'day' }), '7 days')
    assert.equal(formatTimespan({ value: 1, unit: 'month' }), '1 months')
    assert.equal(formatTimespan(parseTimespan('1 hour')!), '1 hours')
  })

  test('a maximum of 0 (or no timespan) is unlimited', ({ assert }) => {
    assert.isNull(maximumTimespan('0 days'))
    assert.isNull(maximumTimespan('soon'))
    assert.isNull(maximumTimespan(undefined))
    assert.deepEqual(maximumTimespan('30 days'), { value: 30, unit: 'day' })
  })

  test('dates move by every unit in UTC; the maximum caps an expiration, never over any', ({
    assert,
  }) => {
    const now = new Date('2030-01-15T00:00:00.000Z')
    const after = (value: number, unit: (typeof TIMESPAN_UNITS)[number]) =>
      addTimespan(now, { value, unit }).toISOString()
    assert.equal(after(90, 'minute'), '2030-01-15T01:30:00.000Z')
    assert.equal(after(2, 'hour'), '2030-01-15T02:00:00.000Z')
    assert.equal(after(1, 'day'), '2030-01-16T00:00:00.000Z')
    assert.equal(after(2, 'week'), '2030-01-29T00:00:00.000Z')
    assert.equal(after(1, 'month'), '2030-02-15T00:00:00.000Z')
    assert.equal(after(1, 'year'), '2031-01-15T00:00:00.000Z')

    assert.isNull(maximumExpiry('0 days', now))
    const maximum = maximumExpiry('30 days', now)
    assert.equal(maximum?.toISOString(), '2030-02-14T00:00:00.000Z')
    assert.isFalse(exceedsMaximum({ value: 30, unit: 'day' }, maximum, now))
    assert.isTrue(exceedsMaximum({ value: 31, unit: 'day' }, maximum, now))
    assert.isTrue(exceedsMaximum({ value: 5, unit: 'week' }, maximum, now))
    assert.isTrue(exceedsMaximum(null, maximum, now))
    assert.isFalse(exceedsMaximum(null, null, now))
    assert.isFalse(exceedsMaximum({ value: 99, unit: 'year' }, null, now))
  })
})
