/**
 * The sign-in recipe on a driver from npm: the `forty-two` test plugin
 * (tests/fixtures/plugins/forty-two) wraps `ally-42-oauth` in a manifest and
 * a provider of a few lines. End to end over real HTTP against a local
 * server answering like 42's API (authorize, token, /v2/me): the redirect
 * with the core's state cookie and PKCE, the callback, the account created
 * and linked, the session; its settings come from its manifest and are read
 * per sign-in.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authProviders } from '#extensions/auth/main'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { startFakeOauth2, type FakeOauth2 } from '#tests/helpers/fake_oauth2'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { OauthBrowser } from '#tests/helpers/oauth_client'

let api: FakeOauth2

/** A 42 account as `GET /v2/me` answers it. */
function student(id: number, login: string, email: string) {
  return {
    id,
    login,
    displayname: `${login} the student`,
    email,
    image: { link: `https://cdn.example/${login}.jpg` },
  }
}

async function enableFortyTwo(extra: Record<string, string | boolean> = {}) {
  await configureOauth({
    'fortyTwo.enabled': true,
    'fortyTwo.clientId': api.clientId,
    'fortyTwo.clientSecret': api.clientSecret,
    'fortyTwo.apiUrl': api.url,
    ...extra,
  })
}

/** Tern → 42's authorize (approves at once) → Tern's callback answer. */
async function signIn(browser = new OauthBrowser()) {
  return { browser, callback: await browser.follow(`${ternUrl()}/api/oauth/auth/forty-two`) }
}

test.group('forty-two plugin (ally-42-oauth from npm)', (group) => {
  group.setup(async () => {
    api = await startFakeOauth2({
      authorizePath: '/oauth/authorize',
      tokenPath: '/oauth/token',
      api: { '/v2/me': (account) => account },
    })
    return () => api.close()
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    api.deny = false
    await enableFortyTwo()
    return rollback
  })

  test('registers "42" with the settings of its manifest', async ({ client, assert }) => {
    const provider = authProviders.get('forty-two')
    assert.equal(provider.displayName, '42')
    assert.equal(provider.enabledKey, 'fortyTwo.enabled')
    const admin = await createUser({ admin: true })
    const response = await client
      .get('/api/configs/admin/fortyTwo')
      .header('Cookie', await accessCookieFor(admin))
    response.assertStatus(200)
    const keys = (response.body() as { key: string }[]).map((variable) => variable.key)
    assert.deepEqual(keys, [
      'fortyTwo.enabled',
      'fortyTwo.clientId',
      'fortyTwo.clientSecret',
      'fortyTwo.apiUrl',
    ])
    const invalid = await client
      .patch('/api/configs/admin')
      .header('Cookie', await accessCookieFor(admin))
      .json([{ key: 'fortyTwo.apiUrl', value: 'not a url' }])
    invalid.assertStatus(400)
  })

  test('offered only while fortyTwo.enabled is on', async ({ client, assert }) => {
    assert.include((await client.get('/api/oauth/available')).body(), 'forty-two')
    await configureOauth({ 'fortyTwo.enabled': false })
    assert.notInclude((await client.get('/api/oauth/available')).body(), 'forty-two')
    ;(await client.get('/api/oauth/auth/forty-two').redirects(0)).assertStatus(403)
  })

  test('redirects to 42 with the state cookie oauth_forty-two_state and a PKCE challenge', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/oauth/auth/forty-two').redirects(0)
    response.assertStatus(302)
    const location = new URL(response.header('location') ?? '')
    assert.equal(location.origin + location.pathname, `${api.url}/oauth/authorize`)
    assert.equal(location.searchParams.get('client_id'), api.clientId)
    assert.equal(location.searchParams.get('response_type'), 'code')
    assert.equal(
      location.searchParams.get('redirect_uri'),
      `${ternUrl()}/api/oauth/callback/forty-two`
    )
    assert.match(location.searchParams.get('state') ?? '', /^.{16,}$/)
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256')
    const cookies = ([] as string[]).concat(response.header('set-cookie') ?? [])
    assert.lengthOf(cookies, 1, cookies.join('\n'))
    assert.match(cookies[0], /^oauth_forty-two_state=/)
    assert.match(cookies[0], /Path=\/api\/oauth\/callback/)
  })

  test('a 42 account signs up: account created and linked, session cookies work', async ({
    client,
    assert,
  }) => {
    api.account = student(4242, 'marvin', 'marvin@student.42.fr')
    const { browser, callback } = await signIn()
    assert.equal(locationOf(callback), '/upload')
    const user = await User.findByOrFail('email', 'marvin@student.42.fr')
    assert.equal(user.username, 'marvin')
    assert.isNull(user.password)
    const account = await SocialAccount.query()
      .where('provider', 'forty-two')
      .where('providerUserId', '4242')
      .firstOrFail()
    assert.equal(account.userId, user.id)
    assert.equal(account.providerUsername, 'marvin')
    const accessToken = browser.cookie(ternUrl(), 'access_token')
    assert.exists(accessToken)
    const me = await client.get('/api/users/me').header('Cookie', `access_token=${accessToken}`)
    me.assertStatus(200)
    assert.equal(me.body().id, user.id)
    // The PKCE verifier reached 42's token endpoint: the fake refuses a code without it.
    assert.exists(api.lastAuthorize?.get('code_challenge'))

    // The second sign-in finds the linked account: same user, no new one.
    const again = await signIn()
    assert.equal(locationOf(again.callback), '/upload')
    assert.lengthOf(await User.query().where('email', 'marvin@student.42.fr'), 1)
  })

  test('"Cancel" at 42 ends on the error page with access_denied', async ({ assert }) => {
    api.account = student(1, 'zaphod', 'zaphod@student.42.fr')
    api.deny = true
    const { callback } = await signIn()
    assert.deepEqual(errorPageOf(callback), {
      error: 'access_denied',
      redirect: '/auth/signIn',
      params: 'forty-two',
    })
    assert.isNull(await User.findBy('email', 'zaphod@student.42.fr'))
  })

  test('settings are read per sign-in: a wrong secret fails, the right one works again', async ({
    assert,
  }) => {
    api.account = student(7, 'trillian', 'trillian@student.42.fr')
    await enableFortyTwo({ 'fortyTwo.clientSecret': 'not-the-secret' })
    assert.equal(errorPageOf((await signIn()).callback)?.error, 'cannot_get_user_info')
    await enableFortyTwo({ 'fortyTwo.clientSecret': api.clientSecret })
    assert.equal(locationOf((await signIn()).callback), '/upload')
  })

  test('an unreachable API (fortyTwo.apiUrl) ends on the error page, not in a 500', async ({
    assert,
  }) => {
    api.account = student(8, 'ford', 'ford@student.42.fr')
    const browser = new OauthBrowser()
    const atProvider = await browser.follow(`${ternUrl()}/api/oauth/auth/forty-two`, {
      stop: (url) => url.origin === api.url,
    })
    // The user is at 42 when the admin points the API elsewhere: the callback's token request fails.
    await enableFortyTwo({ 'fortyTwo.apiUrl': 'http://127.0.0.1:9' })
    const callback = await browser.follow(
      new URL(atProvider.headers.get('location')!, atProvider.url)
    )
    assert.equal(errorPageOf(callback)?.error, 'cannot_get_user_info')
  })
})
