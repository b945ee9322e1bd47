/**
 * Social login in Chromium: sign in through a REAL OpenID provider's login
 * form (oidc-provider), link GitHub (a local server answering like GitHub)
 * from the account page, unlink it after the no-password warning, and the
 * error page of a cancelled sign-in.
 */
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import User from '#models/user'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { startOidcProvider, type TestOidcProvider } from '#tests/helpers/oidc_provider'
import { clearDiscoveryCache } from '#plugins/oidc/index'
import { githubEndpoints } from '#plugins/github/index'
import { startFakeGithub, type FakeGithub } from '#plugins/github/tests/fake_github'

const configService = await app.container.make(ConfigService)

const SETTINGS = [
  'general.appUrl',
  'oauth.oidc-enabled',
  'oauth.oidc-discoveryUri',
  'oauth.oidc-clientId',
  'oauth.oidc-clientSecret',
  'oauth.github-enabled',
  'oauth.github-clientId',
  'oauth.github-clientSecret',
]

async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated]')
}

test.group('Social login | browser journey', (group) => {
  let idp: TestOidcProvider
  let github: FakeGithub
  const emails = ['browser-oidc@example.com']

  group.setup(async () => {
    idp = await startOidcProvider({ redirectUris: [`${baseUrl()}/api/oauth/callback/oidc`] })
    github = await startFakeGithub()
    const saved = { ...githubEndpoints }
    githubEndpoints.oauth = github.url
    githubEndpoints.api = github.url
    await configService.update([
      { key: 'general.appUrl', value: baseUrl() },
      { key: 'oauth.oidc-enabled', value: true },
      { key: 'oauth.oidc-discoveryUri', value: idp.discoveryUri },
      { key: 'oauth.oidc-clientId', value: idp.clientId },
      { key: 'oauth.oidc-clientSecret', value: idp.clientSecret },
      { key: 'oauth.github-enabled', value: true },
      { key: 'oauth.github-clientId', value: github.clientId },
      { key: 'oauth.github-clientSecret', value: github.clientSecret },
    ])
    return async () => {
      await configService.update(SETTINGS.map((key) => ({ key, value: null })))
      await User.query().whereIn('email', emails).delete()
      Object.assign(githubEndpoints, saved)
      clearDiscoveryCache()
      await github.close()
      await idp.close()
    }
  })

  test('signs in with OpenID Connect, links GitHub, then unlinks it', async ({ visit, assert }) => {
    idp.addAccount('browser-sub', {
      email: 'browser-oidc@example.com',
      email_verified: true,
      preferred_username: 'browser.oidc',
    })
    github.account = { id: 9001, login: 'browser-gh', emails: [] }

    const page = await visit('/auth/signIn')
    const errors = collectErrors(page)
    // oidc-provider's development pages import a web font; the tests stay offline.
    await page.context().route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort())
    await hydrated(page)
    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click()

    // The provider's own login form.
    await page.waitForURL(
      (url) => url.origin === new URL(idp.issuer).origin && url.pathname.startsWith('/interaction/')
    )
    await page.getByPlaceholder('Enter any login').fill('browser-sub')
    await page.getByPlaceholder('and password').fill('whatever')
    await Promise.all([
      page.waitForURL((url) => url.origin === baseUrl() && !url.pathname.startsWith('/api/')),
      page.getByRole('button', { name: 'Sign-in' }).click(),
    ])
    assert.equal(new URL(page.url()).pathname, '/upload')
    const user = await User.findByOrFail('email', 'browser-oidc@example.com')
    assert.equal(user.username, 'browser.oidc')

    // Link GitHub from the account page.
    await page.goto('/account')
    await hydrated(page)
    const oidcRow = page.getByTestId('social-oidc')
    await oidcRow.getByText('Linked as browser.oidc').waitFor()
    const githubRow = page.getByTestId('social-github')
    await githubRow.getByText('Not linked').waitFor()
    await Promise.all([
      page.waitForURL((url) => url.origin === baseUrl() && url.pathname === '/account'),
      githubRow.getByRole('link', { name: 'Link' }).click(),
    ])
    await hydrated(page)
    await page.getByTestId('social-github').getByText('Linked as browser-gh').waitFor()

    // Unlink it: the account has no password, so the confirmation warns.
    await page.getByTestId('social-github').getByRole('button', { name: 'Unlink' }).click()
    await page.locator('.ant-popconfirm').getByText('Your account has no password').waitFor()
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Unlink' }).click()
    await page.getByTestId('social-github').getByText('Not linked').waitFor()
    await page.getByTestId('social-oidc').getByText('Linked as browser.oidc').waitFor()
    assert.deepEqual(errors, [])
  })

  test('a cancelled GitHub sign-in shows the error page with the provider name', async ({
    visit,
    assert,
  }) => {
    github.deny = true
    const page = await visit('/auth/signIn')
    await hydrated(page)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/error'),
      page.getByRole('link', { name: 'Sign in with GitHub' }).click(),
    ])
    await page
      .getByText('You cancelled the authentication with GitHub, please try again.')
      .waitFor()
    await hydrated(page)
    await page.getByRole('link', { name: 'Go back' }).click()
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/auth/signIn')
    github.deny = false
  })
})
