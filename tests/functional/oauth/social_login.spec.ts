/**
 * The social-login flow (`/api/oauth/*`) end to end, with the OIDC plugin
 * against a REAL OpenID provider (oidc-provider on a random port): sign-up,
 * sign-in, linking, unlinking, TOTP, and every error code the flow reaches.
 */
import { test } from '@japa/runner'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { createUser, sessionFor, totpCode, awayFromTotpStepEnd } from '#tests/helpers/auth'
import { oidcProviderPerGroup, signInWithOidc } from '#tests/helpers/oidc_sign_in'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import TotpService from '#services/auth/totp_service'

/** A Tern session for `user` in a new browser. */
async function signedInBrowser(user: User) {
  const browser = new OauthBrowser()
  const tokens = await sessionFor(user)
  browser.setCookie(ternUrl(), 'access_token', tokens.accessToken)
  return browser
}

test.group('Social login | flow', (group) => {
  const idp = oidcProviderPerGroup(group)

  test('available lists oidc only while it is enabled', async ({ client, assert }) => {
    assert.include((await client.get('/api/oauth/available')).body(), 'oidc')
    await configureOauth({ 'oauth.oidc-enabled': false })
    assert.notInclude((await client.get('/api/oauth/available')).body(), 'oidc')
  })

  test('auth redirects to the provider with state cookie, PKCE and nonce', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/oauth/auth/oidc').redirects(0)
    response.assertStatus(302)
    const location = new URL(response.header('location')!)
    assert.equal(location.origin + location.pathname, `${new URL(idp.issuer).origin}/auth`)
    assert.equal(location.searchParams.get('client_id'), idp.clientId)
    assert.equal(location.searchParams.get('redirect_uri'), `${ternUrl()}/api/oauth/callback/oidc`)
    assert.equal(location.searchParams.get('response_type'), 'code')
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256')
    assert.match(location.searchParams.get('code_challenge') ?? '', /^[\w-]{43}$/)
    assert.isAbove((location.searchParams.get('nonce') ?? '').length, 20)
    assert.isAbove((location.searchParams.get('state') ?? '').length, 20)
    const cookie = String(response.header('set-cookie'))
    assert.match(cookie, /oauth_oidc_state=/)
    assert.match(cookie, /HttpOnly/i)
  })

  test('auth answers 403 for an unknown or disabled provider', async ({ client }) => {
    ;(await client.get('/api/oauth/auth/nope').redirects(0)).assertStatus(403)
    await configureOauth({ 'oauth.oidc-enabled': false })
    ;(await client.get('/api/oauth/auth/oidc').redirects(0)).assertStatus(403)
  })

  test('a new provider account signs up, gets session cookies and is linked', async ({
    client,
    assert,
  }) => {
    idp.addAccount('sub-new', {
      email: 'New.Person@example.com',
      email_verified: true,
      preferred_username: 'new person!',
    })
    const { browser, callback } = await signInWithOidc('sub-new')
    assert.equal(locationOf(callback), '/upload')
    const user = await User.findByOrFail('email', 'New.Person@example.com')
    assert.equal(user.username, 'newperson')
    assert.isNull(user.password)
    const accessToken = browser.cookie(ternUrl(), 'access_token')!
    assert.exists(accessToken)
    assert.exists(browser.cookie(ternUrl(), 'refresh_token'))
    const status = await client
      .get('/api/oauth/status')
      .header('Cookie', `access_token=${accessToken}`)
    status.assertStatus(200)
    status.assertBody({ oidc: { provider: 'oidc', providerUsername: 'new person!' } })
    const me = await client.get('/api/users/me').header('Cookie', `access_token=${accessToken}`)
    assert.equal(me.body().id, user.id)
  })

  test('a linked provider account signs in as its user; taken usernames get a suffix', async ({
    assert,
  }) => {
    await createUser({ username: 'taken' })
    idp.addAccount('sub-taken', {
      email: 'other@example.com',
      email_verified: true,
      preferred_username: 'taken',
    })
    const first = await signInWithOidc('sub-taken')
    assert.equal(locationOf(first.callback), '/upload')
    const user = await User.findByOrFail('email', 'other@example.com')
    assert.equal(user.username, 'taken1')
    const second = await signInWithOidc('sub-taken')
    assert.equal(locationOf(second.callback), '/upload')
    assert.equal(
      await User.query()
        .where('email', 'other@example.com')
        .count('* as n')
        .first()
        .then((r) => Number(r!.$extras.n)),
      1
    )
    assert.lengthOf(await SocialAccount.query().where('providerUserId', 'sub-taken'), 1)
  })

  test('a verified e-mail of an existing user links the account to that user', async ({
    assert,
  }) => {
    const existing = await createUser({ email: 'match@example.com' })
    idp.addAccount('sub-match', { email: 'MATCH@example.com', email_verified: true })
    const { callback } = await signInWithOidc('sub-match')
    assert.equal(locationOf(callback), '/upload')
    const account = await SocialAccount.findByOrFail('providerUserId', 'sub-match')
    assert.equal(account.userId, existing.id)
  })

  test('registration off: no_user', async ({ assert }) => {
    await configureOauth({ 'oauth.allowRegistration': false })
    idp.addAccount('sub-closed', { email: 'closed@example.com', email_verified: true })
    const { callback } = await signInWithOidc('sub-closed')
    assert.deepEqual(errorPageOf(callback), {
      error: 'no_user',
      redirect: '/auth/signIn',
      params: 'oidc',
    })
    assert.isNull(await User.findBy('email', 'closed@example.com'))
  })

  test('no e-mail: no_email; an unverified e-mail: unverified_account', async ({ assert }) => {
    idp.addAccount('sub-noemail', { preferred_username: 'nomail' })
    assert.equal(errorPageOf((await signInWithOidc('sub-noemail')).callback)?.error, 'no_email')
    idp.addAccount('sub-unverified', { email: 'unverified@example.com', email_verified: false })
    assert.equal(
      errorPageOf((await signInWithOidc('sub-unverified')).callback)?.error,
      'unverified_account'
    )
    assert.isNull(await User.findBy('email', 'unverified@example.com'))
  })

  test('the user cancels at the provider: access_denied', async ({ assert }) => {
    const browser = new OauthBrowser()
    const form = await browser.follow(`${ternUrl()}/api/oauth/auth/oidc`)
    const callback = await browser.cancelLogin(form)
    assert.deepEqual(errorPageOf(callback), {
      error: 'access_denied',
      redirect: '/auth/signIn',
      params: 'oidc',
    })
  })

  test('a forged state is invalid_token; a missing state cookie is expired_token', async ({
    assert,
  }) => {
    idp.addAccount('sub-state', { email: 'state@example.com', email_verified: true })
    const { callback } = await signInWithOidc('sub-state')
    assert.equal(callback.url.pathname, '/api/oauth/callback/oidc')
    const forged = new URL(callback.url)
    forged.searchParams.set('state', 'forged-state')
    // A browser that started a sign-in of its own (it holds a state cookie), given another state:
    const forger = new OauthBrowser()
    await forger.request(`${ternUrl()}/api/oauth/auth/oidc`)
    assert.exists(forger.cookie(ternUrl(), 'oauth_oidc_state'))
    assert.deepEqual(errorPageOf(await forger.request(forged)), {
      error: 'invalid_token',
      redirect: '/auth/signIn',
      params: 'oidc',
    })
    // The state cookie is used up by the callback, and a browser without one gets expired_token.
    assert.isUndefined(forger.cookie(ternUrl(), 'oauth_oidc_state'))
    assert.equal(
      errorPageOf(await new OauthBrowser().request(callback.url))?.error,
      'expired_token'
    )
  })

  test('signed in: links the provider account and goes to /account', async ({ client, assert }) => {
    const user = await createUser()
    idp.addAccount('sub-link', {
      email: 'someone-else@example.com',
      email_verified: true,
      preferred_username: 'linker',
    })
    const { callback } = await signInWithOidc('sub-link', await signedInBrowser(user))
    assert.equal(locationOf(callback), '/account')
    const account = await SocialAccount.findByOrFail('providerUserId', 'sub-link')
    assert.equal(account.userId, user.id)
    assert.equal(account.providerUsername, 'linker')
    const tokens = await sessionFor(user)
    const status = await client
      .get('/api/oauth/status')
      .header('Cookie', `access_token=${tokens.accessToken}`)
    status.assertBody({ oidc: { provider: 'oidc', providerUsername: 'linker' } })
  })

  test('linking an account that belongs to someone else: already_linked', async ({ assert }) => {
    const owner = await createUser()
    await SocialAccount.create({
      userId: owner.id,
      provider: 'oidc',
      providerUserId: 'sub-owned',
      providerUsername: 'o',
    })
    idp.addAccount('sub-owned', { email: 'owned@example.com', email_verified: true })
    const intruder = await createUser()
    const { callback } = await signInWithOidc('sub-owned', await signedInBrowser(intruder))
    assert.deepEqual(errorPageOf(callback), {
      error: 'already_linked',
      redirect: '/account',
      params: 'oidc',
    })
    // A second account of the same provider for one user is refused too.
    idp.addAccount('sub-second', { email: 'second@example.com', email_verified: true })
    const again = await signInWithOidc('sub-second', await signedInBrowser(owner))
    assert.equal(errorPageOf(again.callback)?.error, 'already_linked')
  })

  test('unlink answers 201, then not_linked', async ({ client, assert }) => {
    const user = await createUser()
    await SocialAccount.create({
      userId: user.id,
      provider: 'oidc',
      providerUserId: 'sub-unlink',
      providerUsername: 'u',
    })
    const cookie = `access_token=${(await sessionFor(user)).accessToken}`
    const first = await client.post('/api/oauth/unlink/oidc').header('Cookie', cookie)
    first.assertStatus(201)
    assert.isNull(await SocialAccount.findBy('providerUserId', 'sub-unlink'))
    const second = await client.post('/api/oauth/unlink/oidc').header('Cookie', cookie)
    second.assertStatus(400)
    assert.equal(second.body().error, 'not_linked')
    ;(await client.post('/api/oauth/unlink/oidc')).assertStatus(401)
    ;(await client.get('/api/oauth/status')).assertStatus(401)
  })

  test('TOTP users get a login token unless oauth.ignoreTotp', async ({ client, assert }) => {
    const user = await createUser({ email: 'totp@example.com' })
    const secret = new TotpService().generateSecret()
    user.totpSecret = secret
    user.totpVerified = true
    await user.save()
    await SocialAccount.create({
      userId: user.id,
      provider: 'oidc',
      providerUserId: 'sub-totp',
      providerUsername: 't',
    })
    idp.addAccount('sub-totp', { email: 'totp@example.com', email_verified: true })

    const ignoring = await signInWithOidc('sub-totp')
    assert.equal(locationOf(ignoring.callback), '/upload')

    await configureOauth({ 'oauth.ignoreTotp': false })
    const asking = await signInWithOidc('sub-totp')
    const location = locationOf(asking.callback)
    assert.match(location, /^\/auth\/totp\/[\w-]+$/)
    assert.isUndefined(asking.browser.cookie(ternUrl(), 'access_token'))
    await awayFromTotpStepEnd()
    const loginToken = decodeURIComponent(location.split('/').pop()!)
    const response = await client
      .post('/api/auth/signIn/totp')
      .json({ loginToken, totp: await totpCode(secret) })
    response.assertStatus(200)
    assert.exists(response.body().accessToken)
  })

  test('a disabled provider at the callback: user_not_allowed', async ({ assert }) => {
    const browser = new OauthBrowser()
    idp.addAccount('sub-off', { email: 'off@example.com', email_verified: true })
    const form = await browser.follow(`${ternUrl()}/api/oauth/auth/oidc`)
    await configureOauth({ 'oauth.oidc-enabled': false })
    const callback = await browser.submitLogin(form, 'sub-off')
    assert.equal(errorPageOf(callback)?.error, 'user_not_allowed')
  })
})
