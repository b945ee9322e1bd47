/**
 * The OIDC plugin against a REAL OpenID provider (oidc-provider): settings
 * read per sign-in (username claim, client secret, discovery URI), sign-out
 * at the provider, and the provider's registration.
 */
import { test } from '@japa/runner'
import { authProviders } from '#extensions/auth/main'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { enableOidc, oidcProviderPerGroup, signInWithOidc } from '#tests/helpers/oidc_sign_in'
import { errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'

test.group('OIDC plugin', (group) => {
  const idp = oidcProviderPerGroup(group)

  test('registers the oidc provider as "OpenID Connect" with the oauth.oidc-* settings', ({
    assert,
  }) => {
    const provider = authProviders.get('oidc')
    assert.equal(provider.displayName, 'OpenID Connect')
    assert.equal(provider.enabledKey, 'oauth.oidc-enabled')
    assert.includeMembers(provider.configKeys, [
      'oauth.oidc-discoveryUri',
      'oauth.oidc-clientSecret',
      'oauth.oidc-signOut',
    ])
  })

  test('the admin category "Social Login" still lists the oidc settings', async ({
    client,
    assert,
  }) => {
    const admin = await User.create({
      username: 'oidcadmin',
      email: 'oidcadmin@example.com',
      password: 'password123',
      isAdmin: true,
    })
    const { accessCookieFor } = await import('#tests/helpers/auth')
    const response = await client
      .get('/api/configs/admin/oauth')
      .header('Cookie', await accessCookieFor(admin))
    response.assertStatus(200)
    const keys = (response.body() as { key: string }[]).map((variable) => variable.key)
    assert.includeMembers(keys, [
      'oauth.oidc-enabled',
      'oauth.oidc-discoveryUri',
      'oauth.oidc-usernameClaim',
      'oauth.oidc-scope',
      'oauth.oidc-signOut',
    ])
  })

  test('the username claim names the new user', async ({ assert }) => {
    await enableOidc(idp, { 'oauth.oidc-usernameClaim': 'name' })
    idp.addAccount('sub-claim', {
      email: 'claim@example.com',
      email_verified: true,
      preferred_username: 'pref',
      name: 'Claimed_Name',
    })
    const { callback } = await signInWithOidc('sub-claim')
    assert.equal(locationOf(callback), '/upload')
    const user = await User.findByOrFail('email', 'claim@example.com')
    assert.equal(user.username, 'Claimed_Name')
    assert.equal(
      (await SocialAccount.findByOrFail('providerUserId', 'sub-claim')).providerUsername,
      'Claimed_Name'
    )
  })

  test('a missing username claim: cannot_get_user_info', async ({ assert }) => {
    await enableOidc(idp, { 'oauth.oidc-usernameClaim': 'nickname' })
    idp.addAccount('sub-noclaim', { email: 'noclaim@example.com', email_verified: true })
    assert.equal(
      errorPageOf((await signInWithOidc('sub-noclaim')).callback)?.error,
      'cannot_get_user_info'
    )
  })

  test('settings changed in the admin panel apply to the next sign-in (no restart)', async ({
    assert,
  }) => {
    idp.addAccount('sub-secret', { email: 'secret@example.com', email_verified: true })
    await enableOidc(idp, { 'oauth.oidc-clientSecret': 'wrong-secret' })
    assert.equal(
      errorPageOf((await signInWithOidc('sub-secret')).callback)?.error,
      'cannot_get_user_info'
    )
    await enableOidc(idp, { 'oauth.oidc-clientSecret': idp.clientSecret })
    assert.equal(locationOf((await signInWithOidc('sub-secret')).callback), '/upload')
  })

  test('an unreachable discovery URI sends the user to the error page', async ({
    client,
    assert,
  }) => {
    await enableOidc(idp, {
      'oauth.oidc-discoveryUri': 'http://127.0.0.1:9/.well-known/openid-configuration',
    })
    const response = await client.get('/api/oauth/auth/oidc').redirects(0)
    response.assertStatus(302)
    assert.equal(
      response.header('location'),
      '/error?error=default&redirect=%2Fauth%2FsignIn&params=oidc'
    )
  })

  test('sign-out answers the provider end-session URL only with oauth.oidc-signOut', async ({
    client,
    assert,
  }) => {
    idp.addAccount('sub-out', { email: 'out@example.com', email_verified: true })
    const plain = await signInWithOidc('sub-out')
    const plainOut = await client
      .post('/api/auth/signOut')
      .header('Cookie', `access_token=${plain.browser.cookie(ternUrl(), 'access_token')}`)
    plainOut.assertStatus(201)
    assert.isUndefined(plainOut.body().redirectURI)

    await enableOidc(idp, { 'oauth.oidc-signOut': true })
    const signedIn = await signInWithOidc('sub-out')
    const response = await client
      .post('/api/auth/signOut')
      .header('Cookie', `access_token=${signedIn.browser.cookie(ternUrl(), 'access_token')}`)
    response.assertStatus(201)
    const redirect = new URL(response.body().redirectURI)
    assert.equal(redirect.origin + redirect.pathname, `${idp.issuer}/session/end`)
    assert.equal(redirect.searchParams.get('post_logout_redirect_uri'), ternUrl())
    assert.equal(redirect.searchParams.get('id_token_hint')?.split('.').length, 3)
    // The provider accepts it: it answers its sign-out confirmation page.
    const atProvider = await signedIn.browser.request(redirect)
    assert.equal(atProvider.status, 200)
  })
})
