/**
 * The social-login error page `/error`: every code's
 * message with the provider's display name, the back link, and the
 * sign-in page without the password form under `oauth.disablePassword`.
 */
import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { SOCIAL_LOGIN_ERROR_CODES } from '#extensions/auth/main'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { html } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

const EXPECTED: Record<string, string> = {
  default: 'Something went wrong.',
  access_denied: 'You cancelled the authentication with OpenID Connect, please try again.',
  expired_token: 'The authentication with OpenID Connect took too long, please try again.',
  invalid_token: 'Internal Error',
  no_user: 'No user is linked to this OpenID Connect account.',
  no_email: 'The e-mail address cannot be obtained from this OpenID Connect account.',
  already_linked: 'This OpenID Connect account is already linked to another account.',
  not_linked: 'This OpenID Connect account is not yet linked to any account.',
  unverified_account:
    'This OpenID Connect account is unverified, please try again after verification.',
  discord_guild_permission_denied: 'You are not allowed to sign in.',
  cannot_get_user_info: 'Your user info cannot be fetched from this OpenID Connect account.',
  user_not_allowed: 'You are not allowed to sign in with OpenID Connect.',
  app_url_unconfirmed:
    'Sign-in with OpenID Connect is not available yet: an administrator first has to confirm the address of this site.',
}

test.group('Social login | error page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('shows the message of every code with the provider name "OpenID Connect" for oidc', async ({
    client,
    assert,
  }) => {
    assert.sameMembers(Object.keys(EXPECTED), [...SOCIAL_LOGIN_ERROR_CODES])
    for (const code of SOCIAL_LOGIN_ERROR_CODES) {
      const response = await client.get(`/error?error=${code}&redirect=%2Faccount&params=oidc`)
      response.assertStatus(200)
      const page = html(response.text())
      assert.include(page, `data-error-code="${code}">${EXPECTED[code]}<`, code)
      assert.match(page, /<a[^>]*href="\/account"/, code)
    }
  })

  test('an unknown code shows default; a foreign redirect falls back to the sign-in page', async ({
    client,
    assert,
  }) => {
    const page = html(
      (await client.get('/error?error=bogus&redirect=https://evil.test&params=github')).text()
    )
    assert.include(page, 'data-error-code="default">Something went wrong.<')
    assert.match(page, /<a[^>]*href="\/auth\/signIn"/)
    assert.notInclude(page, 'evil.test"')
  })

  test('a provider without a registered plugin is shown by its capitalised id', async ({
    client,
    assert,
  }) => {
    const page = html(
      (await client.get('/error?error=no_user&redirect=/auth/signIn&params=gitlab')).text()
    )
    assert.include(page, 'No user is linked to this Gitlab account.')
  })

  test('the sign-in page hides the password form under oauth.disablePassword', async ({
    client,
    assert,
  }) => {
    assert.match(html((await client.get('/auth/signIn')).text()), /for="signIn_password"/)
    await configService.update([{ key: 'oauth.disablePassword', value: true }])
    assert.notMatch(html((await client.get('/auth/signIn')).text()), /for="signIn_password"/)
  })
})
