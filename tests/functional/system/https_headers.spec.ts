/**
 * What a security scanner expects of an instance served over HTTPS, through
 * real HTTP: `Strict-Transport-Security` (HSTS_MAX_AGE,
 * HSTS_INCLUDE_SUBDOMAINS) and `Secure` on every cookie when the request
 * came over HTTPS, which behind a proxy means `X-Forwarded-Proto: https`
 * from an address TRUST_PROXY trusts (the test server trusts loopback, the
 * default); neither over plain HTTP, nor when an untrusted client sends the
 * header (a second instance that trusts another proxy).
 */
import { test } from '@japa/runner'
import env from '#start/env'
import {
  api,
  cleanupShareTests,
  createCompletedShare,
  newShareId,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { createReverseShare } from '#tests/helpers/reverse_shares'
import { cleanCommittedData } from '#tests/helpers/clean_database'
import { startTern, type RunningTern } from '#tests/helpers/spawn_tern'
import { freePort } from '#tests/helpers/test_database'

const HTTPS = { 'x-forwarded-proto': 'https' }
const DEFAULT_HSTS = 'max-age=15552000'

/** The attributes of each Set-Cookie line, by cookie name (lower-cased attribute names). */
function cookieAttributes(lines: string[]): Record<string, string[]> {
  return Object.fromEntries(
    lines.map((line) => {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim())
      return [
        pair.slice(0, pair.indexOf('=')),
        attributes.map((attribute) => attribute.split('=')[0].toLowerCase()),
      ]
    })
  )
}

/**
 * Every cookie the server sets, each from the answer that sets it, with
 * `headers` on each request: the session and known-device cookies (sign-in),
 * a share token, a visitor's ownership cookie, the reverse-share cookie, the
 * social sign-in state, and the removals of sign-out.
 */
async function everyCookie(headers: Record<string, string>): Promise<Record<string, string[]>> {
  const owner = await shareUser({ password: 'password123' })
  const signIn = await api('POST', '/api/auth/signIn', {
    headers,
    json: { username: owner.user.username, password: 'password123' },
  })
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status} ${signIn.bytes}`)
  const share = await createCompletedShare({ cookie: owner.cookie, files: { 'a.txt': 'hello' } })
  const token = await api('POST', `/api/shares/${share.id}/token`, { headers, json: {} })
  const visitorShare = await api('POST', '/api/shares', {
    headers,
    json: { id: newShareId(), expiration: '1-day', recipients: [] },
  })
  const { token: reverseToken } = await createReverseShare(owner.cookie)
  const reverseShare = await api('GET', `/api/reverseShares/${reverseToken}`, { headers })
  const social = await api('GET', '/api/oauth/auth/github', { headers })
  const signOut = await api('POST', '/api/auth/signOut', { headers, cookie: owner.cookie })
  const cookies = {
    ...cookieAttributes(signIn.setCookies),
    ...cookieAttributes(token.setCookies),
    ...cookieAttributes(visitorShare.setCookies),
    ...cookieAttributes(reverseShare.setCookies),
    ...cookieAttributes(social.setCookies),
  }
  for (const [name, attributes] of Object.entries(cookieAttributes(signOut.setCookies)))
    cookies[`${name} (removed)`] = attributes
  return cookies
}

const EXPECTED_COOKIES = [
  'access_token',
  'refresh_token',
  'known_device',
  'tern_share_owner',
  'reverse_share_token',
  'oauth_github_state',
  'access_token (removed)',
  'refresh_token (removed)',
]

test.group('HTTPS | behind a trusted proxy', (group) => {
  group.each.teardown(() => cleanupShareTests())
  group.each.setup(async () => {
    await setConfig('share.allowUnauthenticatedShares', 'true')
    await setConfig('oauth.github-enabled', 'true')
    await setConfig('oauth.github-clientId', 'client-id')
    await setConfig('oauth.github-clientSecret', 'client-secret')
    // Social sign-in starts (and sets its state cookie) only once the public address is confirmed.
    await setConfig('general.appUrl', 'https://tern.example.com')
  })

  test('{$self} carries HSTS over HTTPS, never over plain HTTP')
    .with(['/', '/api/configs', '/img/logo.svg', '/no/such/page'])
    .run(async ({ assert }, path) => {
      const secure = await api('GET', path, { headers: { ...HTTPS, accept: 'text/html' } })
      assert.equal(secure.headers.get('strict-transport-security'), DEFAULT_HSTS)
      for (const headers of [{}, { 'x-forwarded-proto': 'http' }] as Record<string, string>[]) {
        const plain = await api('GET', path, { headers: { ...headers, accept: 'text/html' } })
        assert.equal(plain.status, secure.status)
        assert.isNull(plain.headers.get('strict-transport-security'))
      }
    })

  test('HSTS_MAX_AGE and HSTS_INCLUDE_SUBDOMAINS shape the header', async ({ assert, cleanup }) => {
    const previous = {
      maxAge: env.get('HSTS_MAX_AGE'),
      subdomains: env.get('HSTS_INCLUDE_SUBDOMAINS'),
    }
    cleanup(() => {
      env.set('HSTS_MAX_AGE', previous.maxAge as never)
      env.set('HSTS_INCLUDE_SUBDOMAINS', previous.subdomains as never)
      // process.env would otherwise hold the string "undefined".
      if (previous.maxAge === undefined) delete process.env.HSTS_MAX_AGE
      if (previous.subdomains === undefined) delete process.env.HSTS_INCLUDE_SUBDOMAINS
    })
    env.set('HSTS_MAX_AGE', 63072000)
    env.set('HSTS_INCLUDE_SUBDOMAINS', true)
    const response = await api('GET', '/api/configs', { headers: HTTPS })
    assert.equal(
      response.headers.get('strict-transport-security'),
      'max-age=63072000; includeSubDomains'
    )
    // 0 tells browsers to forget an earlier header: the way to turn HSTS off.
    env.set('HSTS_MAX_AGE', 0)
    env.set('HSTS_INCLUDE_SUBDOMAINS', false)
    const off = await api('GET', '/api/configs', { headers: HTTPS })
    assert.equal(off.headers.get('strict-transport-security'), 'max-age=0')
  })

  test('every cookie set over HTTPS is Secure, removals included', async ({ assert }) => {
    const cookies = await everyCookie(HTTPS)
    for (const [name, attributes] of Object.entries(cookies))
      assert.include(attributes, 'secure', name)
    assert.includeMembers(Object.keys(cookies), EXPECTED_COOKIES)
    assert.isTrue(
      Object.keys(cookies).some((name) => /^share_.+_token$/.test(name)),
      'a share token cookie'
    )
  })

  test('over plain HTTP no cookie is Secure, unless general.secureCookies says so', async ({
    assert,
  }) => {
    const plain = await everyCookie({})
    assert.includeMembers(Object.keys(plain), EXPECTED_COOKIES)
    for (const [name, attributes] of Object.entries(plain))
      assert.notInclude(attributes, 'secure', name)

    await setConfig('general.secureCookies', 'true')
    const forced = await everyCookie({})
    for (const name of EXPECTED_COOKIES.filter((cookie) => !cookie.endsWith('(removed)'))) {
      assert.include(forced[name], 'secure', name)
    }
  })
})

test.group('HTTPS | X-Forwarded-Proto from a client that is not a trusted proxy', (group) => {
  let tern: RunningTern
  let url: string

  group.setup(async () => {
    const port = await freePort()
    // Trusts a proxy elsewhere: this test's requests from loopback are clients, their headers ignored.
    tern = startTern(
      ['bin/server.ts'],
      { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', TRUST_PROXY: '10.255.255.1' },
      240_000
    )
    url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 60_000
    while (
      (await fetch(`${url}/api/health`).then(
        (r) => r.status,
        () => 0
      )) !== 200
    ) {
      if (Date.now() > deadline) throw new Error(`the instance did not start:\n${tern.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    return async () => {
      await tern.stop()
      await cleanCommittedData()
    }
  })

  test('no HSTS and no Secure cookie', async ({ assert }) => {
    const page = await fetch(`${url}/api/configs`, { headers: HTTPS })
    assert.equal(page.status, 200)
    assert.isNull(page.headers.get('strict-transport-security'))

    const signUp = await fetch(`${url}/api/auth/signUp`, {
      method: 'POST',
      headers: { ...HTTPS, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'untrusted@example.com',
        username: 'untrusted',
        password: 'password123',
      }),
    })
    assert.equal(signUp.status, 201)
    const cookies = cookieAttributes(signUp.headers.getSetCookie())
    assert.includeMembers(Object.keys(cookies), ['access_token', 'refresh_token'])
    for (const [name, attributes] of Object.entries(cookies))
      assert.notInclude(attributes, 'secure', name)
  })
})
