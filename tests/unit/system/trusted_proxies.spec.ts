import { test } from '@japa/runner'
import { trustedProxies } from '#services/security/trusted_proxies'

/**
 * TRUST_PROXY lists (README: "addresses/subnets comma separated"): the http
 * server read a list as one address and refused to start with it.
 */
test.group('TRUST_PROXY | lists of addresses, subnets and keywords', () => {
  test('a comma-separated list of subnets and addresses trusts exactly its members', ({
    assert,
  }) => {
    const trusted = trustedProxies('10.0.0.0/8, 172.16.0.0/12,192.168.1.7, fd00::/8')
    for (const address of [
      '10.1.2.3',
      '172.31.255.1',
      '192.168.1.7',
      '::ffff:10.9.9.9',
      'fd12::1',
    ]) {
      assert.isTrue(trusted(address), address)
    }
    for (const address of [
      '11.0.0.1',
      '172.32.0.1',
      '192.168.1.8',
      'fe80::1',
      '2001:db8::1',
      'not an ip',
    ]) {
      assert.isFalse(trusted(address), address)
    }
  })

  test('keywords and masks as proxy-addr reads them', ({ assert }) => {
    const trusted = trustedProxies('loopback,uniquelocal,169.254.0.0/255.255.0.0')
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', 'fc00::5', '169.254.3.4'])
      assert.isTrue(trusted(address), address)
    assert.isFalse(trusted('8.8.8.8'))
    assert.isTrue(trustedProxies('::ffff:10.0.0.0/104')('10.200.0.1'))
  })

  test('an entry that is no address, subnet or keyword is refused, naming the variable and the entry', ({
    assert,
  }) => {
    for (const value of ['10.0.0.0/8,proxy.local', '10.0.0.0/33', 'loopback,10.0.0.0/abc']) {
      assert.throws(
        () => trustedProxies(value),
        /TRUST_PROXY.*"(proxy\.local|10\.0\.0\.0\/33|10\.0\.0\.0\/abc)"/
      )
    }
  })
})
