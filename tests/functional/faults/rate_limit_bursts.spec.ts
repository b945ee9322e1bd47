/**
 * Rate limits under bursts: 100 parallel attempts against each limit, on the
 * database store and on the Redis store, through real HTTP. "Through" means
 * the request got past the limit and its secret was checked (any answer but
 * 429); it must be exactly the limit. After a burst the right secret is
 * refused at the attacker's address, but accepted from another one (the
 * lockout is not a weapon). A second Tern process sharing the store proves
 * two instances together allow no more than one.
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import User from '#models/user'
import PasswordResetToken from '#models/password_reset_token'
import { rateLimits } from '#services/auth/rate_limiter'
import { generateToken, hashToken } from '#services/auth/tokens'
import {
  awayFromTotpStepEnd,
  createUser,
  sessionCookie,
  sessionFor,
  totpCode,
  uniqueIp,
} from '#tests/helpers/auth'
import { baseUrl, cleanupShareTests, createCompletedShare, shareUser } from '#tests/helpers/shares'
import {
  BURST,
  burst,
  distinctIps,
  post,
  redisReady,
  request,
  startSecondInstance,
  untilNotLimited,
  useLimiter,
  type SecondInstance,
} from '#tests/helpers/rate_limit_bursts'
import { cleanCommittedData } from '#tests/helpers/clean_database'

/** Long enough for a burst to fit in one window on a loaded machine, short enough to wait for once. */
const WINDOW = '10 seconds'
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const times = (count: number, status: number) => Array<number>(count).fill(status)

for (const store of ['database', 'redis'] as const) {
  test.group(`Faults | ${BURST} parallel attempts against each limit (${store} store)`, (group) => {
    group.teardown(cleanCommittedData)
    let second: SecondInstance
    let restore: () => void
    const users: string[] = []

    group.setup(async () => {
      restore = useLimiter({ store, window: WINDOW })
      if (store === 'redis') await redisReady()
      second = await startSecondInstance(store, WINDOW)
    })
    group.teardown(async () => {
      await second?.tern.stop()
      restore?.()
      if (users.length) await User.query().whereIn('id', users.splice(0)).delete()
      await cleanupShareTests()
    })

    async function account() {
      const user = await createUser({ password: 'password123' })
      users.push(user.id)
      const signIn = (password: string, ip: string, base?: string) =>
        post('/api/auth/signIn', { username: user.username, password }, ip, { base })
      return { user, signIn }
    }

    test('sign-in from one address: exactly the limit is checked; elsewhere the user still gets in', async ({
      assert,
    }) => {
      const { signIn } = await account()
      const attacker = uniqueIp()
      const tally = await burst(BURST, (index) => signIn(`wrong-${index}`, attacker))
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 401))
      assert.equal(await signIn('password123', attacker), 429)
      assert.equal(await signIn('password123', uniqueIp()), 200)
      const later = await untilNotLimited(
        () => signIn('password123', attacker),
        3 * rateLimits().windowSeconds
      )
      assert.equal(later, 200, 'the window passes')
    }).timeout(60_000)

    test('sign-in from 100 addresses: exactly the per-account ceiling is checked', async ({
      assert,
    }) => {
      const { signIn } = await account()
      const ips = distinctIps(BURST)
      const tally = await burst(BURST, (index) => signIn(`wrong-${index}`, ips[index]))
      assert.deepEqual(tally.passed, times(rateLimits().perAccount, 401))
      assert.equal(await signIn('password123', uniqueIp()), 429)
    }).timeout(60_000)

    test('two instances sharing the store together check exactly the limit', async ({ assert }) => {
      const { signIn } = await account()
      const attacker = uniqueIp()
      const bases = [baseUrl(), second.url]
      const tally = await burst(BURST, (index) =>
        signIn(`wrong-${index}`, attacker, bases[index % 2])
      )
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 401))
      for (const base of bases) assert.equal(await signIn('password123', attacker, base), 429)
      assert.equal(await signIn('password123', uniqueIp(), second.url), 200)
    }).timeout(60_000)

    test('TOTP codes: exactly the limit is checked; elsewhere the right code still works', async ({
      assert,
    }) => {
      const { user } = await account()
      user.merge({ totpSecret: TOTP_SECRET, totpVerified: true })
      await user.save()
      const signedIn = await request(
        '/api/auth/signIn',
        { username: user.username, password: 'password123' },
        uniqueIp()
      )
      const loginToken = signedIn.body.loginToken as string
      const attacker = uniqueIp()
      const code = (totp: string, ip: string) =>
        post('/api/auth/signIn/totp', { loginToken, totp }, ip)
      const tally = await burst(BURST, (index) => code(String(100000 + index), attacker))
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 400))
      await awayFromTotpStepEnd(3)
      const right = await totpCode(TOTP_SECRET)
      assert.equal(await code(right, attacker), 429)
      assert.equal(await code(right, uniqueIp()), 200)
    }).timeout(60_000)

    async function passwordShare() {
      const { cookie } = await shareUser()
      const share = await createCompletedShare({
        cookie,
        files: { 'a.txt': 'a' },
        security: { password: 'secret' },
      })
      return (password: string, ip: string) =>
        post(`/api/shares/${share.id}/token`, { password }, ip)
    }

    test('share passwords from one address: exactly the limit is checked; other visitors get in', async ({
      assert,
    }) => {
      const guess = await passwordShare()
      const attacker = uniqueIp()
      const tally = await burst(BURST, (index) => guess(`wrong-${index}`, attacker))
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 403))
      assert.equal(await guess('secret', attacker), 429)
      assert.equal(await guess('secret', uniqueIp()), 200)
    }).timeout(60_000)

    test('share passwords from 100 addresses: exactly the per-share ceiling is checked', async ({
      assert,
    }) => {
      const guess = await passwordShare()
      const ips = distinctIps(BURST)
      const tally = await burst(BURST, (index) => guess(`wrong-${index}`, ips[index]))
      assert.deepEqual(tally.passed, times(rateLimits().perAccount, 403))
      assert.equal(await guess('secret', uniqueIp()), 429)
    }).timeout(60_000)

    test('reset requests: exactly the limit per address is accepted', async ({ assert }) => {
      const { user } = await account()
      const ip = uniqueIp()
      const tally = await burst(BURST, () => post(`/api/auth/resetPassword/${user.email}`, {}, ip))
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 202))
      assert.equal(await post(`/api/auth/resetPassword/${user.email}`, {}, uniqueIp()), 202)
    }).timeout(60_000)

    test('reset tokens: exactly the per-address limit is checked; the real token works elsewhere', async ({
      assert,
    }) => {
      const { user } = await account()
      const token = generateToken()
      await PasswordResetToken.create({
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: DateTime.utc().plus({ minutes: 10 }),
      })
      const reset = (value: string, ip: string) =>
        post('/api/auth/resetPassword', { token: value, password: 'brand-new-password' }, ip)
      const attacker = uniqueIp()
      const tally = await burst(BURST, (index) => reset(`guess-${index}`, attacker))
      assert.deepEqual(tally.passed, times(rateLimits().perIp, 400))
      assert.equal(await reset(token, attacker), 429)
      assert.equal(await reset(token, uniqueIp()), 204)
    }).timeout(60_000)

    test('password changes of a signed-in user: exactly the limit is checked', async ({
      assert,
    }) => {
      const { user } = await account()
      const cookie = sessionCookie(await sessionFor(user))
      const change = (oldPassword: string, ip: string) =>
        post('/api/auth/password', { oldPassword, password: 'brand-new-password' }, ip, {
          method: 'PATCH',
          cookie,
        })
      const ip = uniqueIp()
      const tally = await burst(BURST, (index) => change(`wrong-${index}`, ip))
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 403))
      assert.equal(await change('password123', ip), 429)
    }).timeout(60_000)

    test('sign-ups: exactly the limit per e-mail address and client address gets through', async ({
      assert,
    }) => {
      const ip = uniqueIp()
      const email = `burst-${uniqueIp().replaceAll('.', '-')}@example.com`
      // Too short a password: nothing is created, but the request passed the limit.
      const tally = await burst(BURST, (index) =>
        post('/api/auth/signUp', { email, username: `burst${index}`, password: 'x' }, ip)
      )
      assert.deepEqual(tally.passed, times(rateLimits().perIdentifier, 400))
    }).timeout(60_000)
  })
}
