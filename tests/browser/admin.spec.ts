/**
 * The administration panel in Chromium, against the real server, SMTP
 * server and database: access (visitor → sign-in and back, non-admin → 403),
 * users (invitation read from the mail, promote, demote, delete, the last
 * admin refused), configuration (a setting the public page follows, a
 * refusal shown at its field, reset to default, test e-mail, the logo
 * refusal), shares, version and the setup-finished action.
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright'
import User from '#models/user'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors } from '#tests/helpers/browser'
import { dialogByTitle } from '#tests/helpers/browser'
import {
  cleanupShareTests,
  createCompletedShare,
  setConfig,
  shareUser,
} from '#tests/helpers/shares'
import { startSmtpServer, type TestSmtpServer } from '#tests/helpers/smtp_server'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook_receiver'
import { makePng } from '#tests/helpers/png'

const configService = await app.container.make(ConfigService)

const PASSWORD = 'correct horse battery'

/** A fresh browser context on the test server. */
function freshContext(browser: Browser) {
  return browser.newContext({ baseURL: baseUrl() })
}

/** Waits until the panel has started and asked the API who is signed in. */
async function panelReady(page: Page) {
  await page.waitForSelector('html[data-hydrated]')
}

/** Opens `path` of the panel as the signed-in browser of `page`. */
async function openPanel(page: Page, path: string) {
  await page.goto(path)
  await panelReady(page)
}

/** Visits `path` signed out, signs in through the form and comes back to `path`. */
async function signInThrough(page: Page, path: string, username: string) {
  await page.goto(path)
  await page.waitForURL((url) => url.pathname === '/auth/signIn')
  const url = new URL(page.url())
  if (url.searchParams.get('redirect') !== path)
    throw new Error(`sign-in redirect is ${url.search}`)
  await page.waitForSelector('html[data-hydrated]')
  await page.getByLabel('Email or username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([
    page.waitForURL((next) => `${next.pathname}${next.search}` === path),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ])
  await panelReady(page)
}

/** The menu of configuration categories. */
function categoriesNav(page: Page) {
  return page.getByRole('navigation', { name: 'Configuration categories' })
}

/** The table row of `text` in the table `testId`. */
function row(page: Page, testId: string, text: string) {
  return page.getByTestId(testId).locator('tbody tr').filter({ hasText: text })
}

test.group('Admin panel | browser', (group) => {
  let smtp: TestSmtpServer
  let releases: WebhookReceiver
  const createdUsernames: string[] = []

  group.setup(async () => {
    smtp = await startSmtpServer()
    releases = await startWebhookReceiver({
      path: '/releases/latest',
      defaultReply: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          tag_name: 'v99.1.0',
          html_url: 'https://example.com/releases/v99.1.0',
        }),
      },
    })
    return async () => {
      await smtp.close()
      await releases.close()
    }
  })
  group.each.setup(async () => {
    await setConfig('general.appUrl', baseUrl())
  })
  group.each.teardown(async () => {
    await cleanupShareTests()
    if (createdUsernames.length)
      await User.query().whereIn('username', createdUsernames.splice(0)).delete()
    for (const key of [
      'general.appName',
      'share.maxSize',
      'general.releaseSource',
      'general.checkForUpdates',
      'smtp.enabled',
      'smtp.host',
      'smtp.port',
      'smtp.email',
      'internal.setupFinished',
    ]) {
      await setConfig(key, null)
    }
  })

  test('a visitor signs in and comes back; the admin manages users and reads the invitation mail', async ({
    browser,
    assert,
  }) => {
    await configService.update([
      { key: 'smtp.enabled', value: true },
      { key: 'smtp.host', value: '127.0.0.1' },
      { key: 'smtp.port', value: smtp.port },
      { key: 'smtp.email', value: 'noreply@tern.test' },
    ])
    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)

    // A visitor asking for the users page signs in and lands back on it.
    await signInThrough(page, '/admin/users', admin.username)
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await page.getByTestId('admin-identity').filter({ hasText: admin.username }).waitFor()
    await row(page, 'users-table', admin.username).waitFor()

    // Create a user by invitation: the mail arrives with the link and a password that works.
    const invitee = `invitee_${Date.now().toString(36)}`
    createdUsernames.push(invitee)
    await page.getByRole('button', { name: 'Create user' }).click()
    const create = dialogByTitle(page, 'Create a user')
    await create.waitFor()
    await create.getByLabel('Username').fill(invitee)
    await create.getByLabel('Email').fill(`${invitee}@example.com`)
    await create.getByText('Invite by e-mail').click()
    assert.isFalse(await create.getByLabel('Password', { exact: true }).isVisible())
    await create.getByRole('button', { name: 'Create' }).click()
    await create.waitFor({ state: 'hidden' })
    const inviteeRow = row(page, 'users-table', invitee)
    await inviteeRow.waitFor()
    await page.assertTextContains(inviteeRow, 'No')
    const mail = await smtp.waitForMessage(
      (message) =>
        message.to !== undefined && JSON.stringify(message.to).includes(`${invitee}@example.com`)
    )
    assert.include(mail.subject ?? '', 'invite')
    assert.include(mail.text ?? '', `${baseUrl()}/auth/signIn`)
    const password = /password "([^"]+)"/.exec(mail.text ?? '')?.[1]
    assert.isString(password)
    const signIn = await fetch(`${baseUrl()}/api/auth/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: invitee, password }),
    })
    assert.equal(signIn.status, 200)

    // Create a user with a password: a taken username is refused at its field.
    const manual = `manual_${Date.now().toString(36)}`
    createdUsernames.push(manual)
    await page.getByRole('button', { name: 'Create user' }).click()
    await create.waitFor()
    await create.getByLabel('Username').fill(invitee)
    await create.getByLabel('Email').fill(`${manual}@example.com`)
    await create.getByText('Set a password now').click()
    await create.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await create.getByRole('button', { name: 'Create' }).click()
    await create.getByText('A user with this username already exists').waitFor()
    await create.getByLabel('Username').fill(manual)
    await create.getByRole('button', { name: 'Create' }).click()
    await create.waitFor({ state: 'hidden' })
    await row(page, 'users-table', manual).waitFor()
    const manualSignIn = await fetch(`${baseUrl()}/api/auth/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: manual, password: PASSWORD }),
    })
    assert.equal(manualSignIn.status, 200)

    // Promote, then demote.
    for (const [checked, shown] of [
      [true, 'Yes'],
      [false, 'No'],
    ] as const) {
      await inviteeRow.getByRole('button', { name: `Edit ${invitee}` }).click()
      const edit = dialogByTitle(page, `Edit ${invitee}`)
      await edit.waitFor()
      await edit
        .getByLabel('Username')
        .and(page.locator(`[value="${invitee}"]`))
        .waitFor()
      await edit.getByRole('switch', { name: 'Admin' }).click()
      assert.equal(
        await edit.getByRole('switch', { name: 'Admin' }).getAttribute('aria-checked'),
        String(checked)
      )
      await edit.getByRole('button', { name: 'Save' }).click()
      await edit.waitFor({ state: 'hidden' })
      await inviteeRow.filter({ hasText: shown }).waitFor()
      assert.equal((await User.findByOrFail('username', invitee)).isAdmin, checked)
    }

    // Delete with confirmation.
    await inviteeRow.getByRole('button', { name: `Delete ${invitee}` }).click()
    await page
      .getByRole('tooltip')
      .getByText(`Delete ${invitee} and all of their shares?`)
      .waitFor()
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click()
    await inviteeRow.waitFor({ state: 'detached' })
    assert.isNull(await User.findBy('username', invitee))

    // The last admin cannot be deleted: the server's reason is shown.
    const otherAdmins = await User.query().where('isAdmin', true).whereNot('id', admin.id)
    await User.query()
      .whereIn(
        'id',
        otherAdmins.map((other) => other.id)
      )
      .update({ isAdmin: false })
    try {
      await page.reload()
      await panelReady(page)
      const adminRow = row(page, 'users-table', admin.username)
      await adminRow.getByRole('button', { name: `Delete ${admin.username}` }).click()
      await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click()
      await page
        .locator('.ant-notification-notice')
        .filter({ hasText: 'The last administrator cannot be deleted.' })
        .waitFor()
      assert.isNotNull(await User.find(admin.id))
    } finally {
      await User.query()
        .whereIn(
          'id',
          otherAdmins.map((other) => other.id)
        )
        .update({ isAdmin: true })
    }

    assert.deepEqual(errors, [])
    await context.close()
  })

  test('the admin changes settings, sends a test e-mail, is refused a non-square logo, deletes a share, sees the version', async ({
    browser,
    assert,
  }) => {
    await configService.update([
      { key: 'smtp.enabled', value: true },
      { key: 'smtp.host', value: '127.0.0.1' },
      { key: 'smtp.port', value: smtp.port },
      { key: 'smtp.email', value: 'noreply@tern.test' },
      { key: 'general.checkForUpdates', value: true },
      { key: 'general.releaseSource', value: `${releases.url}` },
    ])
    await setConfig('internal.setupFinished', 'false')
    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const { cookie: ownerCookie, user: owner } = await shareUser()
    const share = await createCompletedShare({
      cookie: ownerCookie,
      name: 'Quarterly report',
      files: { 'a.txt': 'hello world' },
    })

    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await signInThrough(page, '/admin', admin.username)

    // Landing: the entries, the version with the new-release notice, the setup action.
    for (const entry of ['landing-users', 'landing-config', 'landing-shares', 'landing-version']) {
      await page.getByTestId(entry).waitFor()
    }
    await page.getByTestId('admin-version').filter({ hasText: 'Version 0.23.1' }).waitFor()
    await page
      .getByTestId('admin-update')
      .filter({ hasText: 'A new release is available: 99.1.0' })
      .waitFor()
    await page.getByTestId('setup-notice').getByRole('button', { name: 'Setup finished' }).click()
    await page.getByTestId('setup-notice').waitFor({ state: 'detached' })
    assert.isTrue(await configService.get('internal.setupFinished'))

    // General: change the app name (the public page follows); a refused URL is shown at its field.
    await page.getByTestId('landing-config').getByRole('link', { name: 'Configuration' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/config/general')
    const appName = page.getByTestId('config-general.appName')
    const appUrl = page.getByTestId('config-general.appUrl')
    await appName.getByLabel('App name').fill('Ternlet Drive')
    await appUrl.getByLabel('App URL').fill('ftp://files.example.com')
    await page.getByRole('button', { name: 'Save' }).click()
    await appUrl.getByText('App URL must be an http(s) URL').waitFor()
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: '1 setting was not saved' })
      .waitFor()
    assert.equal(await configService.get('general.appName'), 'Ternlet Drive')
    assert.equal(await configService.get('general.appUrl'), baseUrl())
    await appUrl.getByLabel('App URL').fill(baseUrl())
    await appUrl.getByText('App URL must be an http(s) URL').waitFor({ state: 'detached' })
    const home = await context.newPage()
    await home.goto('/')
    await home.waitForSelector('html[data-hydrated]')
    await home.locator('.tern-brand-name').filter({ hasText: 'Ternlet Drive' }).waitFor()
    // The avatar menu of an admin leads to the panel.
    await home.getByRole('button', { name: `Account menu of ${admin.username}` }).click()
    await Promise.all([
      home.waitForURL((url) => url.pathname === '/admin'),
      home.getByRole('menuitem', { name: 'Administration' }).click(),
    ])
    await panelReady(home)
    await home.getByTestId('landing-version').waitFor()
    await home.close()

    // Reset to default.
    await appName.getByRole('button', { name: 'Reset to default' }).click()
    await page.getByRole('tooltip').getByRole('button', { name: 'Reset to default' }).click()
    await appName.getByLabel('App name').and(page.locator('[value="Tern"]')).waitFor()
    assert.equal(await configService.get('general.appName'), 'Tern')

    // A non-square logo is refused with the server's reason.
    await page
      .getByTestId('logo-card')
      .locator('input[type="file"]')
      .setInputFiles({
        name: 'wide.png',
        mimeType: 'image/png',
        buffer: makePng(40, 20, () => [255, 0, 0, 255]),
      })
    await page.getByTestId('logo-card').getByRole('img', { name: 'New logo' }).waitFor()
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page
      .getByTestId('logo-error')
      .filter({ hasText: 'The logo must be square (1:1).' })
      .waitFor()

    // Share: numbers have the server's bounds; a file size is edited with its unit.
    await categoriesNav(page).getByRole('menuitem', { name: 'Share', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/admin/config/share')
    const level = page
      .getByTestId('config-share.zipCompressionLevel')
      .getByLabel('Zip compression level')
    assert.equal(await level.getAttribute('aria-valuemin'), '0')
    assert.equal(await level.getAttribute('aria-valuemax'), '9')
    const maxSize = page.getByTestId('config-share.maxSize')
    assert.equal(await maxSize.getByRole('spinbutton').inputValue(), '1')
    await maxSize.getByText('GB', { exact: true }).waitFor()
    await maxSize.getByRole('spinbutton').fill('2')
    await page.getByRole('button', { name: 'Save' }).click()
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Configuration saved' })
      .waitFor()
    assert.equal(await configService.get('share.maxSize'), 2_000_000_000)
    await setConfig('share.maxSize', null)

    // SMTP: the test e-mail arrives.
    await categoriesNav(page).getByRole('menuitem', { name: 'SMTP', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/admin/config/smtp')
    const testEmail = page.getByTestId('test-email-card')
    await testEmail.getByLabel('Recipient').fill('postmaster@example.com')
    await testEmail.getByRole('button', { name: 'Send test e-mail' }).click()
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Test e-mail sent to postmaster@example.com' })
      .waitFor()
    await smtp.waitForMessage((message) =>
      JSON.stringify(message.to).includes('postmaster@example.com')
    )

    // Plugin categories are listed after the core ones.
    const categories = await categoriesNav(page).getByRole('menuitem').allInnerTexts()
    assert.deepEqual(categories.slice(0, 5), ['General', 'Share', 'Email', 'SMTP', 'Social Login'])
    assert.include(categories, 'Fixture')

    // Shares: every share with its creator; delete one.
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Shares' })
      .click()
    await page.waitForURL((url) => url.pathname === '/admin/shares')
    const shareRow = row(page, 'shares-table', share.id)
    await shareRow.waitFor()
    await page.assertTextContains(shareRow, 'Quarterly report')
    await page.assertTextContains(shareRow, owner.username)
    await page.assertTextContains(shareRow, '11 bytes')
    await page.assertTextContains(shareRow, 'Never')
    await shareRow.getByRole('button', { name: `Delete share ${share.id}` }).click()
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click()
    await shareRow.waitFor({ state: 'detached' })

    assert.deepEqual(errors, [])
    await context.close()
  })

  test('a signed-in user who is not an admin sees the 403 page', async ({ browser, assert }) => {
    const { user } = await shareUser({ password: PASSWORD })
    const context = await freshContext(browser)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await signInThrough(page, '/admin/config/general', user.username)
    await page
      .getByTestId('admin-forbidden')
      .filter({ hasText: 'You need administrator rights to open this page.' })
      .waitFor()
    assert.equal(await page.getByTestId('logo-card').count(), 0)
    assert.deepEqual(errors, [])
    await context.close()
  })

  test('the panel speaks the language of the pages', async ({ browser }) => {
    const { user: admin } = await shareUser({ admin: true, password: PASSWORD })
    const context = await freshContext(browser)
    const page = await context.newPage()
    await signInThrough(page, '/admin/users', admin.username)
    await context.addCookies([{ name: 'language', value: 'de-DE', url: baseUrl() }])
    await openPanel(page, '/admin/users')
    await page.getByRole('heading', { name: 'Benutzer' }).waitFor()
    await page.getByRole('button', { name: 'Benutzer anlegen' }).waitFor()
    await context.close()
  })
})
