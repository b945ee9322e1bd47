import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import limiter from '@adonisjs/limiter/services/main'
import env from '#start/env'
import { rateLimits } from '#services/auth/rate_limiter'
import { createUser, uniqueIp } from '#tests/helpers/auth'
import { useLimiter } from '#tests/helpers/rate_limit_bursts'

const TOO_MANY = { statusCode: 429, message: 'Too many requests', error: 'Too Many Requests' }

/** `count` requests at once (the limits count atomically, so the order does not matter). */
function times<T>(count: number, request: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => request(index)))
}

/**
 * Sends `request` until it is no longer refused with 429 (polling every
 * 200 ms, at most three windows long) and returns that answer.
 */
async function afterTheWindow<T extends { status(): number }>(
  request: () => Promise<T>
): Promise<T> {
  const deadline = Date.now() + rateLimits().windowSeconds * 3000
  for (;;) {
    const response = await request()
    if (response.status() !== 429 || Date.now() > deadline) return response
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

test.group('Auth | rate limits', (group) => {
  // A few seconds more than bin/test.ts's window: filling a limit must fit in one window on slow MySQL commits.
  group.setup(() => useLimiter({ window: '4 seconds' }))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the test run uses a short window (bin/test.ts) and the shared store', ({ assert }) => {
    const limits = rateLimits()
    assert.isAtMost(limits.windowSeconds, 5)
    assert.isAbove(limits.perIp, limits.perIdentifier)
    assert.isAbove(limits.perAccount, limits.perIdentifier)
    // The database store by default, Redis when REDIS_URL is set.
    const expected = env.get('LIMITER_STORE') ?? (env.get('REDIS_URL') ? 'redis' : 'database')
    assert.equal(
      limiter.use({ requests: limits.perIp, duration: limits.windowSeconds }).name,
      expected
    )
  })

  test('failed sign-ins of one account from one address hit the limit, then recover after the window', async ({
    client,
    assert,
  }) => {
    await createUser({ username: 'target', password: 'password123' })
    const ip = uniqueIp()
    const signIn = (password: string, from = ip) =>
      client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', from)
        .json({ username: 'target', password })

    for (const response of await times(rateLimits().perIdentifier, () =>
      signIn('wrong-password')
    )) {
      response.assertStatus(401)
    }
    const limited = await signIn('password123')
    limited.assertStatus(429)
    limited.assertBody(TOO_MANY)
    const retryAfter = Number(limited.header('retry-after'))
    assert.isAtLeast(retryAfter, 1)
    assert.isAtMost(retryAfter, rateLimits().windowSeconds)

    ;(await afterTheWindow(() => signIn('password123'))).assertStatus(200)
  })

  test('successful sign-ins do not count', async ({ client }) => {
    await createUser({ username: 'regular', password: 'password123' })
    const ip = uniqueIp()
    for (let attempt = 0; attempt <= rateLimits().perIdentifier + 1; attempt++) {
      const response = await client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', ip)
        .json({ username: 'regular', password: 'password123' })
      response.assertStatus(200)
    }
  })

  test('sign-ups are limited per IP, and recover', async ({ client, assert }) => {
    const ip = uniqueIp()
    // Invalid bodies are cheap and still count: the limit comes first.
    const signUps = await times(rateLimits().perIp, (attempt) =>
      client
        .post('/api/auth/signUp')
        .header('X-Forwarded-For', ip)
        .json({ email: `user${attempt}@example.com`, username: 'x', password: 'x' })
    )
    for (const response of signUps) response.assertStatus(400)
    const limited = await client
      .post('/api/auth/signUp')
      .header('X-Forwarded-For', ip)
      .json({ email: 'late@example.com', username: 'late', password: 'password123' })
    limited.assertStatus(429)
    limited.assertBody(TOO_MANY)
    assert.isAtLeast(Number(limited.header('retry-after')), 1)

    const recovered = await afterTheWindow(() =>
      client
        .post('/api/auth/signUp')
        .header('X-Forwarded-For', ip)
        .json({ email: 'late@example.com', username: 'late', password: 'password123' })
    )
    recovered.assertStatus(201)
  })

  test('reset requests are limited per address', async ({ client }) => {
    const ip = uniqueIp()
    const requests = await times(rateLimits().perIdentifier, () =>
      client.post('/api/auth/resetPassword/someone@example.com').header('X-Forwarded-For', ip)
    )
    for (const response of requests) response.assertStatus(202)
    const limited = await client
      .post('/api/auth/resetPassword/someone@example.com')
      .header('X-Forwarded-For', ip)
    limited.assertStatus(429)
    limited.assertBody(TOO_MANY)
    ;(
      await client.post('/api/auth/resetPassword/other@example.com').header('X-Forwarded-For', ip)
    ).assertStatus(202)
  })

  test('wrong reset tokens are limited per IP', async ({ client }) => {
    const ip = uniqueIp()
    const guesses = await times(rateLimits().perIp, (attempt) =>
      client
        .post('/api/auth/resetPassword')
        .header('X-Forwarded-For', ip)
        .json({ token: `guess-${attempt}`, password: 'brand-new-password' })
    )
    for (const response of guesses) response.assertStatus(400)
    const limited = await client
      .post('/api/auth/resetPassword')
      .header('X-Forwarded-For', ip)
      .json({ token: 'guess-last', password: 'brand-new-password' })
    limited.assertStatus(429)
  })

  test('wrong TOTP codes of one account hit the limit, then recover', async ({ client }) => {
    const user = await createUser({ username: 'totp.target', password: 'password123' })
    user.merge({ totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', totpVerified: true })
    await user.save()
    const ip = uniqueIp()
    const loginToken = (
      await client
        .post('/api/auth/signIn')
        .header('X-Forwarded-For', ip)
        .json({ username: 'totp.target', password: 'password123' })
    ).body().loginToken

    const attemptFrom = (from: string) =>
      client
        .post('/api/auth/signIn/totp')
        .header('X-Forwarded-For', from)
        .json({ loginToken, totp: 'abcdef' })
    const attempt = () => attemptFrom(ip)
    for (const response of await times(rateLimits().perIdentifier, attempt))
      response.assertStatus(400)
    const limited = await attempt()
    limited.assertStatus(429)
    limited.assertBody(TOO_MANY)

    // Another address may go on with the same login token.
    ;(await attemptFrom(uniqueIp())).assertStatus(400)
    ;(await afterTheWindow(attempt)).assertStatus(400)
  })
})
