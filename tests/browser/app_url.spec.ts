/**
 * The public address (general.appUrl) in a browser. Unset (its default,
 * http://localhost:3000, is not where the test server runs): the
 * share-ready modal links to the address the browser used; the first admin
 * confirms the address in one step after signing up (prefilled with the
 * browser's address, changeable, from the keyboard), at 1440 and 360 px, and
 * then finds it in the configuration; the admin panel's notice confirms it
 * too, and the App URL field never shows the placeholder as the address.
 */
import { test } from '@japa/runner'
import type { Browser, Locator } from 'playwright'
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cutOff } from '#tests/helpers/layout'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const configService = await app.container.make(ConfigService)

const VIEWPORTS = [
  { label: '1440 px', viewport: { width: 1440, height: 900 }, phone: false },
  { label: '360 px phone', viewport: { width: 360, height: 740 }, phone: true },
]

/** A browser context on the test server signed in with `cookie` (`access_token=...`). */
async function signedInContext(browser: Browser, cookie: string) {
  const context = await browser.newContext({ baseURL: baseUrl() })
  await context.addCookies([
    { name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() },
  ])
  return context
}

/** Resolves once the focus is on `locator`'s element. */
async function focused(locator: Locator) {
  const handle = await locator.elementHandle()
  await locator
    .page()
    .waitForFunction((element) => (globalThis as any).document.activeElement === element, handle)
}

test.group('Public address | in a browser', (group) => {
  group.each.setup(async () => {
    // Unset (cleanupShareTests resets it): the default, not the test server's address.
    await setConfig('general.appUrl', null)
  })
  group.each.teardown(() => cleanupShareTests())

  test("the share-ready modal's link and QR code use the address the browser used", async ({
    browser,
    assert,
  }) => {
    assert.notEqual(await configService.get('general.appUrl'), baseUrl())
    const { cookie } = await shareUser()
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/upload')
    await page.waitForSelector('html[data-hydrated]')
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') }])
    await page.getByTestId('upload-file-list').getByText('notes.txt').waitFor()
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    const modal = dialogByTitle(page, 'Share')
    const idInput = modal.getByLabel('Link', { exact: true })
    await idInput.waitFor()
    // The link prefix of the create-share modal is the browser's host too.
    const host = new URL(baseUrl()).host
    await modal.getByText(`${host}/s/`, { exact: true }).waitFor()
    const shareId = await idInput.inputValue()
    await modal.getByRole('button', { name: 'Share', exact: true }).click()

    const ready = dialogByTitle(page, 'Share ready')
    await ready.waitFor({ timeout: 30_000 })
    const link = await ready.getByLabel('Share link').inputValue()
    assert.equal(link, `${baseUrl()}/s/${shareId}`)
    assert.equal(await ready.getByRole('img', { name: `QR code of the link ${link}` }).count(), 1)
    assert.deepEqual(errors, [])
    await context.close()
  })

  for (const { label, viewport, phone } of VIEWPORTS) {
    test(`the first admin confirms the public address in one step after signing up, then finds it in the configuration (${label})`, async ({
      browser,
      assert,
    }) => {
      // A fresh install: nobody has an account yet, so the one signing up becomes the admin.
      await User.query().delete()
      const username = `first_admin_${Date.now().toString(36)}`
      const chosen = 'https://files.example.com'
      const context = await browser.newContext({
        baseURL: baseUrl(),
        viewport,
        isMobile: phone,
        hasTouch: phone,
      })
      try {
        const page = await context.newPage()
        const errors = collectErrors(page)
        await page.goto('/auth/signUp')
        await page.waitForSelector('html[data-hydrated]')
        await page.getByLabel('Username').fill(username)
        await page.getByLabel('Email').fill(`${username}@example.com`)
        await page.getByLabel('Password').fill('correct horse battery')
        await page.getByRole('button', { name: "Let's get started" }).click()

        // The step: the browser's address, in focus, and what waits for it.
        await page.getByRole('heading', { level: 1, name: 'Confirm the public address' }).waitFor()
        const step = page.getByTestId('address-step')
        const field = step.getByLabel('Public address')
        assert.equal(await field.inputValue(), baseUrl())
        await focused(field)
        await step
          .getByText('Until it is confirmed, password-reset e-mails are not sent', { exact: false })
          .waitFor()
        assert.isTrue(await step.getByRole('button', { name: 'Later' }).isVisible())
        assert.deepEqual(await cutOff(page), [])

        // Changed from the keyboard: an address with a path is refused with the reason, then another one is confirmed.
        await field.fill(`${chosen}/tern`)
        await page.keyboard.press('Enter')
        await step
          .getByText('Enter an address starting with http:// or https://, without a path', {
            exact: false,
          })
          .waitFor()
        assert.equal(await field.getAttribute('aria-invalid'), 'true')
        await field.fill(chosen)
        await Promise.all([
          page.waitForURL((url) => url.pathname === '/upload'),
          page.keyboard.press('Enter'),
        ])
        await page.waitForSelector('html[data-hydrated]')
        assert.equal(await configService.stored('general.appUrl'), chosen)

        // The admin configuration shows it, with nothing left to confirm.
        await page.goto('/admin/config/general')
        await page.waitForSelector('html[data-hydrated]')
        const appUrl = page.getByTestId('config-general.appUrl').getByLabel('App URL')
        await appUrl.waitFor()
        assert.equal(await appUrl.inputValue(), chosen)
        assert.equal(await page.getByTestId('app-url-notice').count(), 0)
        assert.equal(await page.getByTestId('app-url-unconfirmed').count(), 0)
        assert.deepEqual(errors, [])
      } finally {
        await User.query().where('username', username).delete()
        await context.close()
      }
    })
  }

  test('the admin panel asks for the address until it is confirmed, and the App URL field never shows the placeholder', async ({
    browser,
    assert,
  }) => {
    const { cookie } = await shareUser({ admin: true })
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/admin/config/general')
    await page.waitForSelector('html[data-hydrated]')
    const notice = page.getByTestId('app-url-notice')
    await notice.getByText('The public address of this site is not confirmed yet').waitFor()
    assert.equal(await notice.getByLabel('Public address').inputValue(), baseUrl())
    const field = page.getByTestId('config-general.appUrl')
    await field.getByText('Not confirmed yet', { exact: false }).waitFor()
    assert.equal(await field.getByLabel('App URL').inputValue(), '')
    assert.notInclude(await field.innerText(), 'localhost:3000')

    await notice.getByRole('button', { name: 'Confirm' }).click()
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: `The public address is now ${baseUrl()}.` })
      .waitFor()
    await notice.waitFor({ state: 'detached' })
    assert.equal(await configService.stored('general.appUrl'), baseUrl())
    // The field follows at once, and the Social Login page gives the callback on that address.
    assert.equal(await field.getByLabel('App URL').inputValue(), baseUrl())
    await page.goto('/admin/config/oauth')
    await page.waitForSelector('html[data-hydrated]')
    const callback = page.getByTestId('oauth-provider-github').getByTestId('oauth-callback-url')
    await callback.waitFor()
    assert.equal(await callback.innerText(), `${baseUrl()}/api/oauth/callback/github`)
    assert.deepEqual(errors, [])
    await context.close()
  })
})
