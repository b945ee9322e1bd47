import { test } from '@japa/runner'
import { generate } from 'otplib'
import type { Page } from 'playwright'
import User from '#models/user'
import { accessTokenFor, createUser } from '#tests/helpers/auth'
import { tokenExpiry } from '../../inertia/lib/session.js'
import { baseUrl, collectErrors, reloadedBy } from '#tests/helpers/browser'

/** Loads `path` and waits for React to take over the server-rendered page. */
async function open(page: Page, path: string) {
  await page.goto(path)
  await page.waitForSelector('html[data-hydrated]')
}

/** `GET /api/users/me` with a personal API token. */
function bearerMe(token: string) {
  return fetch(`${baseUrl()}/api/users/me`, { headers: { Authorization: `Bearer ${token}` } })
}

const TOTP_PERIOD = 30

/** The TOTP time step of a moment (seconds since the epoch / 30). */
function stepOf(epochSeconds: number) {
  return Math.floor(epochSeconds / TOTP_PERIOD)
}

test.group('Account | browser journey', (group) => {
  const created: string[] = []
  group.teardown(async () => {
    await User.query().whereIn('username', created).delete()
  })

  test('sign up, enable TOTP, sign in with a code, keep the session, use an API token, switch to German, delete the account', async ({
    visit,
    assert,
  }) => {
    // An administrator exists already, so the new account is not the last admin and may be deleted.
    const admin = await createUser({ admin: true })
    created.push(admin.username)

    const username = `journey_${Date.now().toString(36)}`
    const email = `${username}@example.com`
    const password = 'correct horse battery'
    created.push(username)

    // Sign up through the form, with the spec's validation messages first.
    const page = await visit('/auth/signUp')
    const errors = collectErrors(page)
    await page.waitForSelector('html[data-hydrated]')
    await page.getByLabel('Username').fill('ab')
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: "Let's get started" }).click()
    await page.getByText('Must be at least 3 characters').waitFor()
    await page.getByText('Invalid email address').waitFor()
    await page.getByText('Must be at least 8 characters').waitFor()

    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    // A new account lands on Upload, not on the marketing home page.
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/upload'),
      page.getByRole('button', { name: "Let's get started" }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('button', { name: `Account menu of ${username}` }).waitFor()
    await page.assertCookie('access_token')

    // Enable TOTP: password, then the secret read from the page, then a generated code.
    await open(page, '/account')
    await page.assertTextContains('h1', 'My account')
    const security = page.getByRole('region', { name: 'Security' })
    await security.getByLabel('Current password').fill(password)
    await security.getByRole('button', { name: 'Enable TOTP' }).click()
    const secretElement = security.getByTestId('totp-secret')
    await secretElement.waitFor()
    const secret = (await secretElement.innerText()).trim()
    assert.match(secret, /^[A-Z2-7]{16,}$/)
    const qrCode = security.getByRole('img', {
      name: 'QR code to add your account to an authenticator app',
    })
    assert.match((await qrCode.getAttribute('src')) ?? '', /^data:image\/png;base64,/)

    const verifyEpoch = Math.floor(Date.now() / 1000)
    await security.getByLabel('Code').fill(await generate({ secret, epoch: verifyEpoch }))
    await security.getByRole('button', { name: 'Verify' }).click()
    await security.getByTestId('totp-status').filter({ hasText: 'Enabled' }).waitFor()
    assert.isTrue(Boolean((await User.findByOrFail('username', username)).totpVerified))

    // Sign out from the avatar menu: the page reloads signed out.
    await page.getByRole('button', { name: `Account menu of ${username}` }).click()
    await reloadedBy(page, () => page.getByRole('menuitem', { name: 'Sign out' }).click())
    await page.waitForSelector('html[data-hydrated]')
    await page.assertCookieMissing('access_token')

    // Sign in with the username, the password and a TOTP code. The code of the
    // step used to verify cannot be replayed: the next step's code is used
    // (one step of clock drift is accepted), or the current one if time moved on.
    await open(page, '/auth/signIn?redirect=/account')
    await page.getByLabel('Email or username').fill(username)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const code = page.getByLabel('Code')
    await code.waitFor()
    const loginStep = Math.max(stepOf(verifyEpoch) + 1, stepOf(Date.now() / 1000))
    await code.fill(await generate({ secret, epoch: loginStep * TOTP_PERIOD }))
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/account'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')
    await page.assertTextContains('h1', 'My account')
    await page
      .getByRole('region', { name: 'Security' })
      .getByTestId('totp-status')
      .filter({ hasText: 'Enabled' })
      .waitFor()

    // An access token about to expire is refreshed by the page (the refresh cookie goes along).
    const user = await User.findByOrFail('username', username)
    const expiring = await accessTokenFor(user, {
      issuedAt: Math.floor(Date.now() / 1000) - 14 * 60,
    })
    await page.context().addCookies([{ name: 'access_token', value: expiring, url: baseUrl() }])
    const [refresh] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/token'),
      page.reload(),
    ])
    assert.equal(refresh.status(), 200)
    const renewed = (await page.context().cookies()).find(
      (cookie) => cookie.name === 'access_token'
    )?.value
    assert.notEqual(renewed, expiring)
    assert.isAbove(tokenExpiry(renewed) ?? 0, Date.now() + 10 * 60 * 1000)
    await page.waitForSelector('html[data-hydrated]')

    // Create an API token (shown once) that works as a Bearer token, then revoke it.
    const tokens = page.getByRole('region', { name: 'API tokens' })
    const nextYear = new Date().getUTCFullYear() + 1
    await tokens.getByLabel('Name').fill('backup script')
    await tokens.getByLabel('Expires on (optional)').fill(`${nextYear}-06-30`)
    await tokens.getByLabel('Expires on (optional)').press('Tab')
    await tokens.getByRole('button', { name: 'Create token' }).click()
    const apiToken = (await tokens.getByTestId('new-api-token').innerText()).trim()
    await tokens.getByText('Copy the token now: it is shown only once').waitFor()
    const row = tokens.getByRole('row', { name: /backup script/ })
    await row.waitFor()
    assert.include(await row.innerText(), String(nextYear))
    assert.equal(await row.count(), 1)
    // A second token may not take the same name: the form says so at the name field, and nothing is added.
    await tokens.getByLabel('Name').fill('Backup Script')
    await tokens.getByRole('button', { name: 'Create token' }).click()
    await tokens
      .locator('.ant-form-item-explain-error')
      .getByText('An API token with this name already exists')
      .waitFor()
    assert.equal(await tokens.getByRole('row', { name: /backup script/i }).count(), 1)
    const me = await bearerMe(apiToken)
    assert.equal(me.status, 200)
    assert.equal(((await me.json()) as { username: string }).username, username)

    await row.getByRole('button', { name: 'Revoke backup script' }).click()
    await page.getByRole('tooltip').getByRole('button', { name: 'Revoke' }).click()
    await tokens.getByText('No API tokens yet').waitFor()
    assert.equal((await bearerMe(apiToken)).status, 401)

    // Switch the language on the account page: the page comes back in German.
    const language = page.getByRole('combobox', { name: 'Language' })
    await language.focus()
    await page.keyboard.type('Deutsch')
    await page.locator('.ant-select-item-option-active[title="Deutsch"]').waitFor()
    await reloadedBy(page, () => page.keyboard.press('Enter'))
    await page.waitForSelector('html[data-hydrated]')
    await page.assertCookie('language', 'de-DE')
    assert.equal(await page.locator('html').getAttribute('lang'), 'de-DE')
    await page.assertTextContains('h1', 'Mein Konto')

    // Delete the account: the dialog asks for the current password (focused, Enter submits, a wrong one is
    // refused at the field), then the goodbye page, signed out; then signing in fails.
    await page.getByRole('button', { name: 'Konto löschen' }).click()
    const dialog = page.getByRole('dialog')
    await dialog
      .getByText('Dein Konto und alle deine Freigaben werden endgültig gelöscht.')
      .waitFor()
    await page.waitForFunction("document.activeElement?.id === 'deleteAccount_password'")
    await page.keyboard.type('not my password')
    await page.keyboard.press('Enter')
    await dialog.getByText('Ungültiges Passwort').waitFor()
    assert.isNotNull(await User.findBy('username', username))
    await dialog.getByLabel('Aktuelles Passwort').fill(password)
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/goodbye'),
      dialog.getByRole('button', { name: 'Löschen' }).click(),
    ])
    await page.waitForSelector('html[data-hydrated]')
    await page.getByRole('heading', { level: 1, name: 'Auf Wiedersehen' }).waitFor()
    await page
      .getByText('Dein Konto und alle deine Freigaben wurden gelöscht.', { exact: false })
      .waitFor()
    await page.getByRole('link', { name: 'Anmelden' }).first().waitFor()
    assert.isNull(await User.findBy('username', username))

    await open(page, '/auth/signIn')
    await page.getByLabel('E-Mail oder Benutzername').fill(username)
    await page.getByLabel('Passwort', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await page
      .getByTestId('form-error')
      .getByText('Falsche E-Mail-Adresse oder falsches Passwort')
      .waitFor()
    await page.assertPath('/auth/signIn')

    assert.deepEqual(errors, [])
  })
})
