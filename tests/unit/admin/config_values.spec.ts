import { test } from '@japa/runner'
import {
  isChanged,
  joinFilesize,
  splitFilesize,
  toApiValue,
  toFormValue,
} from '../../../inertia/admin/lib/config_values.js'

test.group('Admin | config values', () => {
  test('a file size shows in the largest unit that keeps it whole (1000-based)', ({ assert }) => {
    assert.deepEqual(splitFilesize(1_000_000_000), { value: 1, unit: 'GB' })
    assert.deepEqual(splitFilesize(10_000_000), { value: 10, unit: 'MB' })
    assert.deepEqual(splitFilesize(1_500_000), { value: 1500, unit: 'KB' })
    assert.deepEqual(splitFilesize(1_234), { value: 1234, unit: 'B' })
    assert.deepEqual(splitFilesize(0), { value: 0, unit: 'B' })
    assert.deepEqual(splitFilesize(Number.NaN), { value: 0, unit: 'B' })
  })

  test('a number and a unit give whole bytes', ({ assert }) => {
    assert.equal(joinFilesize({ value: 2, unit: 'GB' }), 2_000_000_000)
    assert.equal(joinFilesize({ value: 1.5, unit: 'MB' }), 1_500_000)
    assert.equal(joinFilesize({ value: 0.0004, unit: 'KB' }), 0)
    assert.equal(joinFilesize({ value: 7, unit: 'B' }), 7)
  })

  test('stored strings become editor values and editor values the typed JSON the API wants', ({
    assert,
  }) => {
    assert.strictEqual(toFormValue('boolean', 'true'), true)
    assert.strictEqual(toFormValue('boolean', 'false'), false)
    assert.strictEqual(toFormValue('number', '8'), 8)
    assert.strictEqual(toFormValue('filesize', '1000'), 1000)
    assert.strictEqual(toFormValue('timespan', '3 months'), '3 months')
    assert.strictEqual(toFormValue('text', 'a\nb'), 'a\nb')

    assert.strictEqual(toApiValue('boolean', true), true)
    assert.strictEqual(toApiValue('number', '12'), 12)
    assert.strictEqual(toApiValue('filesize', 5), 5)
    assert.strictEqual(toApiValue('string', undefined), '')
    assert.strictEqual(toApiValue('timespan', '1 weeks'), '1 weeks')
  })

  test('a value is changed only when its typed form differs from the stored one', ({ assert }) => {
    assert.isFalse(isChanged('number', '8', 8))
    assert.isTrue(isChanged('number', '8', 9))
    assert.isFalse(isChanged('boolean', 'true', true))
    assert.isTrue(isChanged('boolean', 'true', false))
    assert.isFalse(isChanged('string', '********', '********'))
    assert.isTrue(isChanged('string', '********', ''))
    assert.isFalse(isChanged('filesize', '1000000000', 1_000_000_000))
  })
})
