import { test } from '@japa/runner'
import {
  compareVersions,
  isValidRange,
  isValidVersion,
  satisfies,
} from '#extensions/plugins/semver'

test.group('Plugins | semver', () => {
  test('recognises versions', ({ assert }) => {
    for (const v of ['1.0.0', '0.1.0', '10.20.30', '1.0.0-beta.1', '1.0.0+build.5'])
      assert.isTrue(isValidVersion(v), v)
    for (const v of ['1', '1.0', 'one', '01.0.0', '1.0.0.0', ''])
      assert.isFalse(isValidVersion(v), v)
  })

  test('recognises ranges', ({ assert }) => {
    for (const r of ['^1.0.0', '~1.2', '>=1.0.0 <2.0.0', '1.x', '*', '1.2.3', '^1 || ^2'])
      assert.isTrue(isValidRange(r), r)
    for (const r of ['', 'abc', '1.0.0 - 2.0.0', '>x', '^1.0.0 ||'])
      assert.isFalse(isValidRange(r), r)
    // npm reads these as `*` or as "nothing"; an engine must name versions.
    for (const r of ['  ', '|| ^1', '^1 || || ^2', '^1 || <x']) assert.isFalse(isValidRange(r), r)
    for (const r of ['', '^1.0.0 ||', '>x']) assert.isFalse(satisfies('1.0.0', r), r)
  })

  test('compares versions, undefined when one is not a version', ({ assert }) => {
    assert.isBelow(compareVersions('1.2.3', '1.10.0')!, 0)
    assert.isAbove(compareVersions('v2.0.0', '2.0.0-rc.1')!, 0)
    assert.equal(compareVersions('1.0.0+build.5', '1.0.0'), 0)
    assert.isUndefined(compareVersions('latest', '1.0.0'))
  })

  test('matches versions against ranges like npm does', ({ assert }) => {
    const cases: Array<[string, string, boolean]> = [
      ['1.0.0', '^1.0.0', true],
      ['1.9.3', '^1.2.0', true],
      ['2.0.0', '^1.0.0', false],
      ['0.2.5', '^0.2.0', true],
      ['0.3.0', '^0.2.0', false],
      ['0.0.4', '^0.0.3', false],
      ['1.2.9', '~1.2.0', true],
      ['1.3.0', '~1.2.0', false],
      ['1.5.0', '>=1.0.0 <2.0.0', true],
      ['2.0.0', '>=1.0.0 <2.0.0', false],
      ['3.1.0', '^1.0.0 || ^3.0.0', true],
      ['1.4.0', '1.x', true],
      ['2.0.0', '1', false],
      ['1.3.0', '>1.2', true],
      ['1.2.7', '>1.2', false],
      ['1.2.7', '<=1.2', true],
      ['5.0.0', '*', true],
      ['2.0.0-beta.1', '^1.0.0', false],
      ['2.0.0-beta.2', '>=2.0.0-beta.1', true],
      ['1.0.0', '^99.0.0', false],
    ]
    for (const [version, range, expected] of cases) {
      assert.equal(satisfies(version, range), expected, `${version} in ${range}`)
    }
  })
})
