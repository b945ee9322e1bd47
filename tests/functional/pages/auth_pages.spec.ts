import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { accessCookieFor, createUser } from '#tests/helpers/auth'
import { html, inertiaVisit } from '#tests/helpers/pages'

const configService = await app.container.make(ConfigService)

test.group('Pages | auth pages render', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('the sign-in page is server-rendered with its title, fields and links', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/auth/signIn')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Sign in - Tern</title>')
    assert.match(page, /<h1[^>]*>Welcome back<\/h1>/)
    assert.match(page, /<label[^>]*for="signIn_identifier"[^>]*>Email or username<\/label>/)
    assert.match(page, /<label[^>]*for="signIn_password"[^>]*>Password<\/label>/)
    // E-mail is off on a fresh install: no reset link can be sent, so none is offered.
    assert.notInclude(page, 'Forgot password?')
    assert.match(page, /<a href="\/auth\/signUp"[^>]*>Sign up<\/a>/)
  })

  test('the sign-in page offers "Forgot password?" only while e-mail is on and the public address confirmed', async ({
    client,
    assert,
  }) => {
    assert.isFalse((await inertiaVisit(client, '/auth/signIn')).props.mailEnabled)
    await configService.update([
      { key: 'smtp.enabled', value: true },
      { key: 'smtp.host', value: '127.0.0.1' },
      { key: 'smtp.email', value: 'noreply@tern.test' },
    ])
    assert.isTrue((await inertiaVisit(client, '/auth/signIn')).props.mailEnabled)
    // No confirmed address: no reset link can be mailed yet (#services/auth/password_reset_service).
    assert.notInclude(html((await client.get('/auth/signIn')).text()), 'Forgot password?')
    await configService.update([{ key: 'general.appUrl', value: 'https://tern.example.com' }])
    const page = html((await client.get('/auth/signIn')).text())
    assert.match(page, /<a href="\/auth\/resetPassword"[^>]*>Forgot password\?<\/a>/)
  })

  test('the sign-in page hides sign-up and forgot-password links when the settings say so', async ({
    client,
    assert,
  }) => {
    await configService.update([
      { key: 'share.allowRegistration', value: false },
      { key: 'oauth.disablePassword', value: true },
    ])
    const page = html((await client.get('/auth/signIn')).text())
    assert.include(page, '<title data-inertia="">Sign in - Tern</title>')
    assert.notInclude(page, 'href="/auth/signUp"')
    assert.notInclude(page, 'Forgot password?')
  })

  test('the sign-in page is rendered in the language of the cookie', async ({ client, assert }) => {
    await configService.update([
      { key: 'smtp.enabled', value: true },
      { key: 'general.appUrl', value: 'https://tern.example.com' },
    ])
    const page = html((await client.get('/auth/signIn').header('Cookie', 'language=de-DE')).text())
    assert.include(page, '<title data-inertia="">Anmelden - Tern</title>')
    assert.include(page, 'E-Mail oder Benutzername')
    assert.include(page, 'Passwort vergessen?')
  })

  test('the sign-in page keeps a local redirect and lands on Upload for none or any other one', async ({
    client,
    assert,
  }) => {
    assert.equal(
      (await inertiaVisit(client, '/auth/signIn?redirect=/account')).props.redirect,
      '/account'
    )
    assert.equal((await inertiaVisit(client, '/auth/signIn')).props.redirect, '/upload')
    const unsafeValues = [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\tevil.example',
      'account',
    ]
    for (const unsafe of unsafeValues) {
      for (const page of ['/auth/signIn', '/auth/signUp', '/auth/totp/token-1']) {
        const visit = await inertiaVisit(client, `${page}?redirect=${encodeURIComponent(unsafe)}`)
        assert.equal(visit.props.redirect, '/upload', `${page} ${unsafe}`)
      }
    }
  })

  test('signed-in users are sent from sign-in to the redirect, or to Upload', async ({
    client,
  }) => {
    const cookie = await accessCookieFor(await createUser())
    const toAccount = await client
      .get('/auth/signIn?redirect=/account')
      .header('Cookie', cookie)
      .redirects(0)
    toAccount.assertStatus(302)
    toAccount.assertHeader('location', '/account')
    for (const unsafe of ['//evil.example', 'https://evil.example']) {
      const refused = await client
        .get(`/auth/signIn?redirect=${encodeURIComponent(unsafe)}`)
        .header('Cookie', cookie)
        .redirects(0)
      refused.assertStatus(302)
      refused.assertHeader('location', '/upload')
    }
  })

  test('the sign-up page is server-rendered with username, e-mail and password', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/auth/signUp')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Sign up - Tern</title>')
    for (const field of ['username', 'email', 'password']) {
      assert.match(page, new RegExp(`<label[^>]*for="signUp_${field}"`))
    }
    assert.match(page, /<a href="\/auth\/signIn"[^>]*>Sign in<\/a>/)
  })

  test('the sign-up page does not exist when registration is off', async ({ client, assert }) => {
    await configService.update([{ key: 'share.allowRegistration', value: false }])
    const response = await client.get('/auth/signUp')
    response.assertStatus(404)
    assert.include(html(response.text()), "Oops this page doesn't exist.")
  })

  test('signed-in users are sent from sign-up to Upload', async ({ client }) => {
    const response = await client
      .get('/auth/signUp')
      .header('Cookie', await accessCookieFor(await createUser()))
      .redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/upload')
  })

  test('the forgot-password page asks for the e-mail address while e-mail is on and the public address confirmed', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'smtp.enabled', value: true }])
    // No confirmed address yet: the page says why no link can be sent, and asks for nothing.
    const waiting = html((await client.get('/auth/resetPassword')).text())
    assert.include(waiting, 'Password reset by e-mail is not available yet')
    assert.include(waiting, 'An administrator first has to confirm the address of this site.')
    assert.notInclude(waiting, 'forgotPassword_email')

    await configService.update([{ key: 'general.appUrl', value: 'https://tern.example.com' }])
    const response = await client.get('/auth/resetPassword')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Forgot password - Tern</title>')
    assert.match(page, /<h1[^>]*>Forgot your password\?<\/h1>/)
    assert.match(page, /<label[^>]*for="forgotPassword_email"[^>]*>Email<\/label>/)
  })

  test('the forgot-password page says plainly that no link can be sent while e-mail is off', async ({
    client,
    assert,
  }) => {
    await configService.update([{ key: 'smtp.enabled', value: false }])
    const page = html((await client.get('/auth/resetPassword')).text())
    assert.include(page, 'Password reset by e-mail is not available')
    assert.include(page, 'no reset link can be sent')
    assert.notInclude(page, 'forgotPassword_email')
    assert.isFalse((await inertiaVisit(client, '/auth/resetPassword')).props.mailEnabled)
  })

  test('the goodbye page thanks the user by the app name', async ({ client, assert }) => {
    const response = await client.get('/goodbye')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Account deleted - Tern</title>')
    assert.match(page, /<h1[^>]*>Goodbye<\/h1>/)
    assert.include(
      page,
      'Your account and all your shares have been deleted. Thank you for using Tern.'
    )
  })

  test('the reset-password page of a link asks for a new password and keeps the token', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/auth/resetPassword/abc123-token')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Reset password - Tern</title>')
    assert.match(page, /<label[^>]*for="resetPassword_password"[^>]*>New password<\/label>/)
    const inertia = await inertiaVisit(client, '/auth/resetPassword/abc123-token')
    assert.equal(inertia.component, 'auth/reset_password')
    assert.equal(inertia.props.token, 'abc123-token')
  })

  test('the TOTP page of a social login asks for the code and keeps the login token', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/auth/totp/login-token-1')
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">Two-factor authentication - Tern</title>')
    assert.match(page, /<label[^>]*for="totp_code"[^>]*>Code<\/label>/)
    const inertia = await inertiaVisit(client, '/auth/totp/login-token-1')
    assert.equal(inertia.component, 'auth/totp')
    assert.equal(inertia.props.loginToken, 'login-token-1')
  })
})

test.group('Pages | account page', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('visitors are sent to sign in, coming back to /account', async ({ client }) => {
    const response = await client.get('/account').redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/auth/signIn?redirect=/account')
  })

  test('an expired access token counts as a visitor', async ({ client }) => {
    const user = await createUser()
    const cookie = await accessCookieFor(user, { issuedAt: Math.floor(Date.now() / 1000) - 3600 })
    const response = await client.get('/account').header('Cookie', cookie).redirects(0)
    response.assertStatus(302)
    response.assertHeader('location', '/auth/signIn?redirect=/account')
  })

  test('signed-in users get their account page with every section', async ({ client, assert }) => {
    const user = await createUser({ username: 'ada_l', email: 'ada@example.com' })
    const response = await client.get('/account').header('Cookie', await accessCookieFor(user))
    response.assertStatus(200)
    const page = html(response.text())
    assert.include(page, '<title data-inertia="">My account - Tern</title>')
    assert.match(page, /<h1[^>]*>My account<\/h1>/)
    for (const section of [
      'Account info',
      'Password',
      'Security',
      'API tokens',
      'Preferences',
      'Delete account',
    ]) {
      assert.match(page, new RegExp(`<h2[^>]*>${section}</h2>`), section)
    }
    assert.match(page, /<input[^>]*id="accountInfo_username"[^>]*value="ada_l"/)
    assert.match(page, /<input[^>]*id="accountInfo_email"[^>]*value="ada@example.com"/)
    assert.match(page, /<label[^>]*for="changePassword_oldPassword"/)
    assert.match(page, /<label[^>]*for="totpEnable_password"/)
  })

  test('a user without a password only sets a new one', async ({ client, assert }) => {
    const user = await createUser({ password: null })
    const page = html(
      (await client.get('/account').header('Cookie', await accessCookieFor(user))).text()
    )
    assert.notInclude(page, 'changePassword_oldPassword')
    assert.match(page, /<label[^>]*for="changePassword_password"/)
    assert.include(page, 'Set a password first to enable two-factor authentication.')
  })

  test('the account page is rendered in German with the language cookie', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const page = html(
      (
        await client
          .get('/account')
          .header('Cookie', `${await accessCookieFor(user)}; language=de-DE`)
      ).text()
    )
    assert.include(page, '<title data-inertia="">Mein Konto - Tern</title>')
    assert.match(page, /<h2[^>]*>Konto löschen<\/h2>/)
  })
})
