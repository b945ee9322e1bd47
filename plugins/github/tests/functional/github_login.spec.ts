/**
 * The GitHub plugin end to end against a local server answering like
 * GitHub (token, user and e-mail endpoints): sign-up, sign-in, linking next
 * to another provider, and its error codes.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { authProviders } from '#extensions/auth/main'
import SocialAccount from '#models/social_account'
import User from '#models/user'
import { createUser, sessionFor } from '#tests/helpers/auth'
import { OauthBrowser } from '#tests/helpers/oauth_client'
import { configureOauth, errorPageOf, locationOf, ternUrl } from '#tests/helpers/oauth'
import { githubEndpoints } from '../../index.js'
import { startFakeGithub, type FakeGithub } from '../fake_github.js'

let github: FakeGithub

/** Runs the flow in `browser` and answers Tern's callback response. */
function signIn(browser = new OauthBrowser()) {
  return browser.follow(`${ternUrl()}/api/oauth/auth/github`)
}

test.group('GitHub plugin', (group) => {
  group.setup(async () => {
    github = await startFakeGithub()
    const saved = { ...githubEndpoints }
    githubEndpoints.oauth = github.url
    githubEndpoints.api = github.url
    return async () => {
      Object.assign(githubEndpoints, saved)
      await github.close()
    }
  })
  group.each.setup(async () => {
    const rollback = await testUtils.db().withGlobalTransaction()
    github.deny = false
    github.account = null
    await configureOauth({
      'oauth.github-enabled': true,
      'oauth.github-clientId': github.clientId,
      'oauth.github-clientSecret': github.clientSecret,
    })
    return rollback
  })

  test('registers "GitHub" with the oauth.github-* settings', ({ assert }) => {
    const provider = authProviders.get('github')
    assert.equal(provider.displayName, 'GitHub')
    assert.equal(provider.enabledKey, 'oauth.github-enabled')
  })

  test('signs up with the primary verified e-mail, then signs in again', async ({ assert }) => {
    github.account = {
      id: 4242,
      login: 'octo-cat',
      emails: [
        { email: 'other@example.com', primary: false, verified: true },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    }
    const browser = new OauthBrowser()
    assert.equal(locationOf(await signIn(browser)), '/upload')
    assert.exists(browser.cookie(ternUrl(), 'access_token'))
    const user = await User.findByOrFail('email', 'octo@example.com')
    assert.equal(user.username, 'octocat')
    const account = await SocialAccount.findByOrFail('providerUserId', '4242')
    assert.deepInclude(account.serialize(), {
      provider: 'github',
      providerUsername: 'octo-cat',
      userId: user.id,
    })
    assert.equal(locationOf(await signIn()), '/upload')
    assert.lengthOf(await User.query().where('email', 'octo@example.com'), 1)
  })

  test('no e-mail: no_email; an unverified primary e-mail: unverified_account', async ({
    assert,
  }) => {
    github.account = { id: 1, login: 'nomail', emails: [] }
    assert.deepEqual(errorPageOf(await signIn()), {
      error: 'no_email',
      redirect: '/auth/signIn',
      params: 'github',
    })
    github.account = {
      id: 2,
      login: 'unverified',
      emails: [{ email: 'u@example.com', primary: true, verified: false }],
    }
    assert.equal(errorPageOf(await signIn())?.error, 'unverified_account')
  })

  test('cancel at GitHub: access_denied', async ({ assert }) => {
    github.deny = true
    assert.equal(errorPageOf(await signIn())?.error, 'access_denied')
  })

  test('a wrong client secret: cannot_get_user_info', async ({ assert }) => {
    github.account = {
      id: 3,
      login: 'x',
      emails: [{ email: 'x@example.com', primary: true, verified: true }],
    }
    await configureOauth({ 'oauth.github-clientSecret': 'not-the-secret' })
    assert.equal(errorPageOf(await signIn())?.error, 'cannot_get_user_info')
  })

  test('a signed-in user links GitHub next to OIDC; status lists both; unlink removes one', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await SocialAccount.create({
      userId: user.id,
      provider: 'oidc',
      providerUserId: 'sub-x',
      providerUsername: 'oidc-name',
    })
    github.account = { id: 77, login: 'linked-gh', emails: [] }
    const browser = new OauthBrowser()
    const tokens = await sessionFor(user)
    browser.setCookie(ternUrl(), 'access_token', tokens.accessToken)
    assert.equal(locationOf(await signIn(browser)), '/account')
    const cookie = `access_token=${tokens.accessToken}`
    const status = await client.get('/api/oauth/status').header('Cookie', cookie)
    status.assertBody({
      github: { provider: 'github', providerUsername: 'linked-gh' },
      oidc: { provider: 'oidc', providerUsername: 'oidc-name' },
    })
    ;(await client.post('/api/oauth/unlink/github').header('Cookie', cookie)).assertStatus(201)
    const after = await client.get('/api/oauth/status').header('Cookie', cookie)
    after.assertBody({ oidc: { provider: 'oidc', providerUsername: 'oidc-name' } })
  })
})
