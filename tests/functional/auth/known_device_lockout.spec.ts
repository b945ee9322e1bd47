/**
 * The per-account ceiling (RATE_LIMIT_PER_ACCOUNT, all addresses together)
 * as a weapon: an attacker who sprays one account from many addresses, or
 * from one host that may set X-Forwarded-For (the default TRUST_PROXY trusts
 * loopback), fills it and refuses the account to everyone. A browser that
 * signed in to the account before carries the proof of it (the `known_device`
 * cookie, app/controllers/auth/known_device_cookie.ts) and still gets in;
 * the attacker, and anyone without the proof, stays refused, and the proof
 * lifts neither the per-address limits nor a limit of its own.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import { rateLimits } from '#services/auth/rate_limiter'
import {
  awayFromTotpStepEnd,
  createUser,
  setCookies,
  totpCode,
  uniqueIp,
} from '#tests/helpers/auth'
import { distinctIps, useLimiter } from '#tests/helpers/rate_limit_bursts'

const SIGN_IN = '/api/auth/signIn'
const TOO_MANY = { statusCode: 429, message: 'Too many requests', error: 'Too Many Requests' }
const WRONG = { statusCode: 401, message: 'Wrong email or password', error: 'Unauthorized' }

/**
 * The `Cookie` header a browser sends to `path` after `response`: every
 * cookie it set that is not a removal and whose Path covers `path`.
 */
function cookiesFor(response: ApiResponse, path: string): string {
  return setCookies(response)
    .filter((cookie) => cookie.value !== '' && Number(cookie.attributes['max-age'] ?? 1) > 0)
    .filter((cookie) => path.startsWith(String(cookie.attributes.path ?? '/')))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ')
}

/** A sign-in of `username` from `ip`, with the browser's cookies when given. */
function signIn(
  client: ApiClient,
  username: string,
  password: string,
  ip: string,
  cookie?: string
) {
  const request = client.post(SIGN_IN).header('X-Forwarded-For', ip).json({ username, password })
  return cookie ? request.header('Cookie', cookie) : request
}

/**
 * How the attacker spreads its guesses: a new X-Forwarded-For per guess (a
 * client the proxy trust lets pick its address), or a few real addresses,
 * each staying under its own per-address limit.
 */
const SPRAYS = [
  {
    name: 'a new X-Forwarded-For address per guess',
    addresses: (count: number) => distinctIps(count),
  },
  {
    name: 'a few addresses, each under its own limit',
    addresses: (count: number) => {
      const hosts = distinctIps(Math.ceil(count / rateLimits().perIdentifier))
      return Array.from({ length: count }, (_, index) => hosts[index % hosts.length])
    },
  },
]

/**
 * Wrong passwords for `username` until the account's ceiling refuses: more
 * guesses than the ceiling, at once. Exactly the ceiling's worth are checked
 * (401), the rest refused (429).
 */
async function spray(
  client: ApiClient,
  username: string,
  addresses: (count: number) => string[],
  assert: Assert
) {
  const { perAccount, perIdentifier } = rateLimits()
  const from = addresses(perAccount + perIdentifier)
  const answers = await Promise.all(
    from.map((ip) => signIn(client, username, 'wrong-password', ip))
  )
  const statuses = answers.map((answer) => answer.status())
  assert.equal(statuses.filter((status) => status === 401).length, perAccount, statuses.join(','))
  assert.equal(
    statuses.filter((status) => status === 429).length,
    perIdentifier,
    statuses.join(',')
  )
}

test.group('Auth | a known device signs in while its account is sprayed', (group) => {
  // Long enough for a spray and the sign-ins after it to fall in one window on a loaded machine.
  group.setup(() => useLimiter({ window: '20 seconds' }))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test(
    '{name}: the account refuses the attacker and new devices, not the browser that signed in before'
  )
    .with(SPRAYS)
    .run(async ({ client, assert }, { addresses }) => {
      const user = await createUser({ password: 'password123' })
      const home = uniqueIp()
      const before = await signIn(client, user.username, 'password123', home)
      before.assertStatus(200)
      const browser = cookiesFor(before, SIGN_IN)

      await spray(client, user.username, addresses, assert)

      // The attacker, even with the right password, and a browser without the proof: refused.
      const attacker = await signIn(client, user.username, 'password123', uniqueIp())
      attacker.assertStatus(429)
      attacker.assertBody(TOO_MANY)
      ;(await signIn(client, user.username, 'password123', home)).assertStatus(429)

      // The browser that signed in before, from home or from a new address.
      const again = await signIn(client, user.username, 'password123', home, browser)
      again.assertStatus(200)
      assert.properties(again.body(), ['accessToken', 'refreshToken'])
      ;(await signIn(client, user.username, 'password123', uniqueIp(), browser)).assertStatus(200)
      // A wrong password from it is checked (and said so), not refused.
      const wrong = await signIn(client, user.username, 'wrong-password', home, browser)
      wrong.assertStatus(401)
      wrong.assertBody(WRONG)
      // The attacker stays refused.
      ;(await signIn(client, user.username, 'wrong-password', uniqueIp())).assertStatus(429)
    })

  test('the proof is set once signed in: HttpOnly, sent to the sign-in routes only, never on a failed attempt', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ password: 'password123' })
    const failed = await signIn(client, user.username, 'wrong-password', uniqueIp())
    failed.assertStatus(401)
    assert.notInclude(
      setCookies(failed).map((cookie) => cookie.name),
      'known_device'
    )

    const signedIn = await signIn(client, user.username, 'password123', uniqueIp())
    const proof = setCookies(signedIn).find((cookie) => cookie.name === 'known_device')
    assert.exists(proof)
    assert.isTrue(proof!.attributes.httponly)
    assert.equal(proof!.attributes.path, '/api/auth')
    assert.equal(String(proof!.attributes.samesite).toLowerCase(), 'strict')
    assert.isAbove(Number(proof!.attributes['max-age']), 30 * 24 * 3600)
    assert.notInclude(
      decodeURIComponent(proof!.value),
      user.id,
      'the account is not readable from the cookie'
    )
  })

  test('the proof is bound to its account, and a forged or altered one is no proof', async ({
    client,
    assert,
  }) => {
    const owner = await createUser({ password: 'password123' })
    const victim = await createUser({ password: 'password123' })
    const ownBrowser = cookiesFor(
      await signIn(client, owner.username, 'password123', uniqueIp()),
      SIGN_IN
    )
    await spray(client, victim.username, SPRAYS[0].addresses, assert)

    ;(await signIn(client, victim.username, 'password123', uniqueIp(), ownBrowser)).assertStatus(
      429
    )
    const altered = ownBrowser.replace(
      /known_device=([^;]*)/,
      (_, value: string) => `known_device=${value.slice(0, -2)}xx`
    )
    ;(await signIn(client, victim.username, 'password123', uniqueIp(), altered)).assertStatus(429)
    ;(
      await signIn(client, victim.username, 'password123', uniqueIp(), 'known_device=forged')
    ).assertStatus(429)
  })

  test('the proof keeps the per-address limits, and a stolen one is limited by itself', async ({
    client,
    assert,
  }) => {
    const user = await createUser({ password: 'password123' })
    const { perIdentifier } = rateLimits()
    const browser = cookiesFor(
      await signIn(client, user.username, 'password123', uniqueIp()),
      SIGN_IN
    )

    // From an address that used up its guesses on the account: refused, proof or not.
    const crowded = uniqueIp()
    for (const answer of await Promise.all(
      Array.from({ length: perIdentifier }, () =>
        signIn(client, user.username, 'wrong-password', crowded)
      )
    )) {
      answer.assertStatus(401)
    }
    ;(await signIn(client, user.username, 'password123', crowded, browser)).assertStatus(429)

    // The cookie replayed with a new address per guess: its own limit, whatever the address.
    const guesses = await Promise.all(
      distinctIps(perIdentifier * 2).map((ip) =>
        signIn(client, user.username, 'wrong-password', ip, browser)
      )
    )
    const statuses = guesses.map((answer) => answer.status())
    assert.equal(
      statuses.filter((status) => status === 401).length,
      perIdentifier,
      statuses.join(',')
    )
    ;(await signIn(client, user.username, 'password123', uniqueIp(), browser)).assertStatus(429)
  })

  test('with TOTP on, the second step of a known device is not refused by a spray of codes', async ({
    client,
  }) => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const user = await createUser({ password: 'password123' })
    user.merge({ totpSecret: secret, totpVerified: true })
    await user.save()
    const home = uniqueIp()
    const loginToken = async (cookie?: string) =>
      (await signIn(client, user.username, 'password123', home, cookie)).body().loginToken as string
    const totp = (token: string, code: string, ip: string, cookie?: string) => {
      const request = client
        .post('/api/auth/signIn/totp')
        .header('X-Forwarded-For', ip)
        .json({ loginToken: token, totp: code })
      return cookie ? request.header('Cookie', cookie) : request
    }

    await awayFromTotpStepEnd()
    const now = Math.floor(Date.now() / 1000)
    // The previous step's code (one step of drift is accepted): the later sign-in needs a newer step.
    const first = await totp(await loginToken(), await totpCode(secret, now - 30), home)
    first.assertStatus(200)
    const browser = cookiesFor(first, '/api/auth/signIn/totp')

    // Someone who knows the password sprays codes with its own login token from new addresses.
    const { perAccount, perIdentifier } = rateLimits()
    const stolen = await loginToken()
    await Promise.all(
      distinctIps(perAccount + perIdentifier).map((ip) => totp(stolen, '000000', ip))
    )
    ;(await totp(stolen, await totpCode(secret, now), uniqueIp())).assertStatus(429)

    // The known browser completes its sign-in.
    ;(
      await totp(await loginToken(browser), await totpCode(secret, now), home, browser)
    ).assertStatus(200)
  })
})
