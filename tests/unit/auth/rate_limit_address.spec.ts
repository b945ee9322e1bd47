import { test } from '@japa/runner'
import { addressKey } from '#services/auth/rate_limiter'

test.group('Rate limits | client address keys', () => {
  test('IPv4 addresses count one by one, IPv4-mapped IPv6 as the IPv4 address', ({ assert }) => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7')
    assert.notEqual(addressKey('203.0.113.7'), addressKey('203.0.113.8'))
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
  })

  test('IPv6 addresses count by /64, whatever their spelling', ({ assert }) => {
    const key = '2001:db8:a:b::/64'
    for (const address of [
      '2001:db8:a:b::1',
      '2001:0db8:000a:000b:ffff:1:2:3',
      '2001:DB8:A:B:0:0:0:1',
      '2001:db8:a:b:1::',
      '2001:db8:a:b::192.0.2.1',
      'fe80::1%eth0'.replace('fe80::', '2001:db8:a:b::'),
    ]) {
      assert.equal(addressKey(address), key, address)
    }
    assert.notEqual(addressKey('2001:db8:a:c::1'), key)
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64')
    assert.equal(addressKey('::1'), '0:0:0:0::/64')
  })
})
