/**
 * What makes a sign-in device "the same" (app/services/auth/known_devices.ts):
 * the browser and OS families without versions, and the network (IPv4 /24,
 * IPv6 /64); the fingerprint is per user and never holds the raw values.
 */
import { test } from '@japa/runner'
import { deviceFamilies, deviceFingerprint, deviceNetwork } from '#services/auth/known_devices'

const AGENTS = {
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
}

test.group('Known devices | fingerprints', () => {
  test('tells browser and OS families apart, whatever their versions', ({ assert }) => {
    assert.equal(deviceFamilies(AGENTS.firefoxLinux), 'firefox|linux')
    assert.equal(deviceFamilies(AGENTS.chromeWindows), 'chrome|windows')
    assert.equal(deviceFamilies(AGENTS.edgeWindows), 'microsoft edge|windows')
    assert.equal(deviceFamilies(AGENTS.safariIphone), 'safari|ios')
    assert.equal(deviceFamilies(AGENTS.chromeAndroid), 'chrome|android')
    assert.equal(deviceFamilies(AGENTS.safariMac), 'safari|macos')
    assert.equal(deviceFamilies(AGENTS.firefoxLinux.replaceAll('128.0', '131.0')), 'firefox|linux')
    assert.equal(deviceFamilies('curl/8.5.0'), 'curl|unknown')
    assert.equal(deviceFamilies(null), 'unknown|unknown')
    assert.equal(deviceFamilies('   '), 'unknown|unknown')
  })

  test('keeps the network of an address: IPv4 /24 (mapped IPv6 too), IPv6 /64', ({ assert }) => {
    assert.equal(deviceNetwork('203.0.113.77'), '203.0.113.0/24')
    assert.equal(deviceNetwork('::ffff:203.0.113.9'), '203.0.113.0/24')
    assert.equal(deviceNetwork('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
    assert.equal(deviceNetwork('2001:db8:1:2:bbbb::7'), '2001:db8:1:2::/64')
    assert.equal(deviceNetwork('not an address'), 'unknown')
    assert.equal(deviceNetwork(null), 'unknown')
  })

  test('the fingerprint is the same for one device and user, different otherwise, and hides the values', ({
    assert,
  }) => {
    const device = { userAgent: AGENTS.firefoxLinux, ip: '203.0.113.77' }
    const fingerprint = deviceFingerprint('user-1', device)
    assert.match(fingerprint, /^[0-9a-f]{64}$/)
    assert.equal(
      deviceFingerprint('user-1', { userAgent: AGENTS.firefoxLinux, ip: '203.0.113.4' }),
      fingerprint
    )
    assert.notEqual(deviceFingerprint('user-2', device), fingerprint)
    assert.notEqual(
      deviceFingerprint('user-1', { ...device, userAgent: AGENTS.chromeWindows }),
      fingerprint
    )
    assert.notEqual(deviceFingerprint('user-1', { ...device, ip: '198.51.100.77' }), fingerprint)
  })
})
