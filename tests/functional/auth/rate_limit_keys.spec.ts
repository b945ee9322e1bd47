/**
 * How the limits are keyed: per account and address, per
 * address (IPv6 by /64), and a higher per-account ceiling, so that an
 * attacker cannot lock out a user who signs in from elsewhere, and cannot
 * dodge the limits with another spelling of the account or another address
 * of the same IPv6 network.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { rateLimits } from '#services/auth/rate_limiter'
import { createUser, uniqueIp } from '#tests/helpers/auth'
import { useLimiter } from '#tests/helpers/rate_limit_bursts'

/** `count` requests at once (the limits count atomically, so the order does not matter). */
function times<T>(count: number, request: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => request(index)))
}

test.group('Auth | rate limit keys', (group) => {
  // Longer than bin/test.ts's window: filling a limit must fit in one window on slow MySQL commits.
  group.setup(() => useLimiter({ window: '4 seconds' }))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('an attacker at one address cannot lock out the user signing in from another', async ({
    client,
    assert,
  }) => {
    await createUser({ username: 'victim', password: 'password123' })
    const attacker = uniqueIp()
    const signIn = (password: string, from: string) =>
      client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', from)
        .json({ username: 'victim', password })
    // More guesses than the per-account ceiling, at once: the refused ones must not fill it.
    const { perIdentifier, perAccount } = rateLimits()
    const guesses = await Promise.all(
      Array.from({ length: perAccount + perIdentifier }, () => signIn('wrong-password', attacker))
    )
    const statuses = guesses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 401).length, perIdentifier)
    assert.equal(statuses.filter((status) => status === 429).length, perAccount)
    ;(await signIn('password123', attacker)).assertStatus(429)
    ;(await signIn('password123', uniqueIp())).assertStatus(200)
  })

  test('the e-mail address and the username of one account share one counter', async ({
    client,
  }) => {
    const user = await createUser({ username: 'two.names', password: 'password123' })
    const ip = uniqueIp()
    const guesses = await times(rateLimits().perIdentifier, (attempt) => {
      const identifier =
        attempt % 2 === 0 ? { username: 'two.names' } : { email: user.email.toUpperCase() }
      return client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', ip)
        .json({ ...identifier, password: 'wrong-password' })
    })
    for (const response of guesses) response.assertStatus(401)
    const limited = await client
      .post('/api/auth/signIn')
      .header('X-Forwarded-For', ip)
      .json({ email: user.email, password: 'password123' })
    limited.assertStatus(429)
  })

  test('the addresses of one IPv6 /64 share one counter; the next network does not', async ({
    client,
  }) => {
    await createUser({ username: 'ipv6.user', password: 'password123' })
    const bytes = uniqueIp().split('.').slice(1)
    const network = `2001:db8:${Number(bytes[0]).toString(16)}:${Number(bytes[1]).toString(16)}`
    const signIn = (password: string, from: string) =>
      client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', from)
        .json({ username: 'ipv6.user', password })
    const guesses = await times(rateLimits().perIdentifier, (index) =>
      signIn('wrong-password', `${network}::${(index + 1).toString(16)}`)
    )
    for (const response of guesses) response.assertStatus(401)
    ;(await signIn('password123', `${network}:1234:5678:9abc:def0`)).assertStatus(429)
    ;(await signIn('password123', `${network.replace(/:[0-9a-f]+$/, ':ffff')}::1`)).assertStatus(
      200
    )
  })
})
