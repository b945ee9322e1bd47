/**
 * The Google plugin end to end against a local server answering like
 * Google (authorization, token, userinfo): sign-up, PKCE/nonce parameters,
 * unverified e-mail, cancel.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authProviders } from '#extensions/auth/main'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { startFakeOauth2, type FakeOauth2 } from '#tests/helpers/fake_oauth2'
import { googleEndpoints, googleEndpointsAt } from '../../index.js'

let google: FakeOauth2

function signIn(browser = new OauthBrowser()) {
  return browser.follow(`${ternUrl()}/api/oauth/auth/google`)
}

test.group('Google plugin', (group) => {
  group.setup(async () => {
    google = await startFakeOauth2({
      authorizePath: '/o/oauth2/v2/auth',
      tokenPath: '/token',
      clientAuth: 'post',
      api: {
        '/v1/userinfo': (account) => ({
          sub: account.sub,
          email: account.email,
          email_verified: account.verified,
          name: account.name,
        }),
      },
    })
    const saved = { ...googleEndpoints }
    Object.assign(googleEndpoints, googleEndpointsAt(google.url))
    return async () => {
      Object.assign(googleEndpoints, saved)
      await google.close()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    google.deny = false
    google.account = null
    await configureOauth({
      'oauth.google-enabled': true,
      'oauth.google-clientId': google.clientId,
      'oauth.google-clientSecret': google.clientSecret,
    })
    return rollback
  })

  test('registers "Google"', ({ assert }) => {
    assert.equal(authProviders.get('google').displayName, 'Google')
  })

  test('signs up with a verified account; the request carries PKCE, nonce and state', async ({
    assert,
  }) => {
    google.account = { sub: 'g-1', email: 'gina@example.com', verified: true, name: 'Gina G' }
    const browser = new OauthBrowser()
    assert.equal(locationOf(await signIn(browser)), '/upload')
    assert.equal(google.lastAuthorize?.get('code_challenge_method'), 'S256')
    assert.isAbove(google.lastAuthorize?.get('nonce')?.length ?? 0, 20)
    assert.equal(google.lastAuthorize?.get('scope'), 'openid email profile')
    const user = await User.findByOrFail('email', 'gina@example.com')
    assert.equal(user.username, 'GinaG')
    assert.equal((await SocialAccount.findByOrFail('providerUserId', 'g-1')).provider, 'google')
  })

  test('an unverified e-mail: unverified_account; cancel: access_denied', async ({ assert }) => {
    google.account = { sub: 'g-2', email: 'unv@example.com', verified: false, name: 'U' }
    assert.deepEqual(errorPageOf(await signIn()), {
      error: 'unverified_account',
      redirect: '/auth/signIn',
      params: 'google',
    })
    google.deny = true
    assert.equal(errorPageOf(await signIn())?.error, 'access_denied')
  })
})
