/**
 * Issue 17 item 1 in a browser: with general.appUrl unset (its default,
 * http://localhost:3000, is not where the test server runs), the share-ready
 * modal links to the address the browser used, and the admin setup notice
 * stores that address as general.appUrl in one click.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright'
import app from '@adonisjs/core/services/app'
import ConfigService from '#services/config/config_service'
import { baseUrl, collectErrors, dialogByTitle } from '#tests/helpers/browser'
import { cleanupShareTests, setConfig, shareUser } from '#tests/helpers/shares'

const configService = await app.container.make(ConfigService)

/** A browser context on the test server signed in with `cookie` (`access_token=...`). */
async function signedInContext(browser: Browser, cookie: string) {
  const context = await browser.newContext({ baseURL: baseUrl() })
  await context.addCookies([{ name: 'access_token', value: cookie.slice('access_token='.length), url: baseUrl() }])
  return context
}

test.group('Links | general.appUrl unset in a browser', (group) => {
  group.each.setup(async () => {
    // Unset (cleanupShareTests resets it): the default, not the test server's address.
    await setConfig('general.appUrl', null)
  })
  group.each.teardown(() => cleanupShareTests())

  test("the share-ready modal's link and QR code use the address the browser used", async ({ browser, assert }) => {
    assert.notEqual(await configService.get('general.appUrl'), baseUrl())
    const { cookie } = await shareUser()
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/upload')
    await page.waitForSelector('html[data-hydrated]')
    await page.getByTestId('file-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') }])
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

  test('the setup notice sets general.appUrl to the browser address in one click; then it is gone', async ({ browser, assert }) => {
    const { cookie } = await shareUser({ admin: true })
    const context = await signedInContext(browser, cookie)
    const page = await context.newPage()
    const errors = collectErrors(page)
    await page.goto('/admin')
    await page.waitForSelector('html[data-hydrated]')
    const notice = page.getByTestId('app-url-notice')
    await notice.getByText(`Tern is reached at ${baseUrl()}: use this address for links?`).waitFor()
    await notice.getByRole('button', { name: 'Use this address' }).click()
    await page.locator('.ant-notification-notice').filter({ hasText: `Links now use ${baseUrl()}.` }).waitFor()
    await notice.waitFor({ state: 'detached' })
    assert.equal(await configService.get('general.appUrl'), baseUrl())

    // Set: no more question, and the setting wins from now on.
    const generalRead = page.waitForResponse((response) => response.url().includes('/api/configs/admin/general'))
    await page.reload()
    await page.waitForSelector('html[data-hydrated]')
    assert.equal((await generalRead).status(), 200)
    await page.getByTestId('landing-config').waitFor()
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
    assert.equal(await page.getByTestId('app-url-notice').count(), 0)
    assert.deepEqual(errors, [])
    await context.close()
  })
})
